package main

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"time"

	gatewayv1 "boardgame/gateway/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/anypb"
)

// A watch stream failing with one of these will not do better when opened again.
var finalWatchCodes = map[codes.Code]bool{
	codes.InvalidArgument:    true,
	codes.NotFound:           true,
	codes.PermissionDenied:   true,
	codes.Unauthenticated:    true,
	codes.FailedPrecondition: true,
}

// Seat plays the seats one session holds in one game, following its watch stream.
type Seat struct {
	session     *Session
	gameID      string
	choose      *rand.Rand
	seen        int64      // the last version a view came with: where a reopened stream resumes
	acted       int64      // the last version this seat's action for was applied (or overtaken)
	chosen      *anypb.Any // the action chosen at choseAt (its label: chosenLabel), sent again after a failed try
	chosenLabel string
	choseAt     int64
	Moves       int
	Reopened    int
	Refusal     *Refusal // the refusal provoked on purpose, once
}

func newSeat(session *Session, gameID string, choose *rand.Rand) *Seat {
	return &Seat{session: session, gameID: gameID, choose: choose, acted: -1}
}

// play follows the game until it is over; the final view. A stream that fails or ends early is
// opened again from the last version received, after a growing pause (or the pause a RATE_LIMITED
// refusal asks for).
func (s *Seat) play(ctx context.Context) (*gatewayv1.GameView, error) {
	for lost := 0; ; {
		final, err := s.follow(ctx, &lost)
		if final != nil || ctx.Err() != nil {
			return final, ctx.Err()
		}
		if err != nil && finalWatchCodes[refusalOf(err).Code] {
			return nil, fmt.Errorf("WatchGame: %w", err)
		}
		if lost >= maxReconnectsInARow {
			return nil, fmt.Errorf("the watch stream keeps ending before the game is over (last: %v)", err)
		}
		delay, limited := rateLimitDelay(err)
		if !limited {
			delay = backoff(lost)
		}
		lost++
		s.Reopened++
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// follow reads one watch stream to its end: the final view when the game is over, else the error
// (nil for a clean end) that ended the stream.
func (s *Seat) follow(ctx context.Context, lost *int) (*gatewayv1.GameView, error) {
	streamCtx, cancel := context.WithCancel(s.session.authorized(ctx))
	defer cancel()
	stream, err := s.session.Games.WatchGame(streamCtx, &gatewayv1.WatchGameRequest{GameId: s.gameID, FromVersion: s.seen})
	if err != nil {
		return nil, err
	}
	for {
		message, err := stream.Recv()
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		*lost = 0
		view := message.GetGame()
		if view == nil {
			continue
		}
		if view.GetVersion() > s.seen {
			s.seen = view.GetVersion()
		}
		if view.GetStatus() == gatewayv1.GameStatus_GAME_STATUS_FINISHED {
			return view, nil
		}
		if err := s.act(ctx, view); err != nil {
			return nil, err
		}
	}
}

// act chooses one of the view's labelled legal actions and submits it unchanged, with the view's
// version and a fresh request id. The first time, it first sends the action with a version the game
// has not reached, to show how a refusal reads: ABORTED, reason STALE_VERSION, metadata `version`.
func (s *Seat) act(ctx context.Context, view *gatewayv1.GameView) error {
	legal := view.GetLegalActions()
	if len(legal) == 0 || view.GetVersion() <= s.acted {
		return nil
	}
	if s.chosen == nil || s.choseAt != view.GetVersion() {
		pick := legal[s.choose.Intn(len(legal))]
		s.chosen, s.chosenLabel, s.choseAt = pick.GetAction(), pick.GetLabel(), view.GetVersion()
	}
	if s.Refusal == nil {
		if err := s.provokeRefusal(ctx, view, s.chosen); err != nil {
			return err
		}
	}
	request := &gatewayv1.SubmitActionRequest{
		GameId:          s.gameID,
		Action:          s.chosen,
		ExpectedVersion: view.GetVersion(),
		RequestId:       fmt.Sprintf("%s-%d", s.session.PlayerID, view.GetVersion()),
	}
	if _, err := call(ctx, s.session, s.session.Games.SubmitAction, request); err != nil {
		if refusalOf(err).Code == codes.Aborted {
			s.acted = view.GetVersion()
			return nil // another seat moved first: the stream brings the newer view to choose from
		}
		// Not marked acted: the reopened stream's view of this version is answered again, under the
		// same request id, so a move that did go through is not applied twice.
		return fmt.Errorf("SubmitAction: %w", err)
	}
	s.acted = view.GetVersion()
	s.Moves++
	fmt.Fprintf(os.Stderr, "played v%d: %s\n", view.GetVersion(), s.chosenLabel)
	return nil
}

// provokeRefusal submits action for the version after view's, which the game has not reached, and
// keeps the refusal; a call that is not refused fails the run.
func (s *Seat) provokeRefusal(ctx context.Context, view *gatewayv1.GameView, action *anypb.Any) error {
	request := &gatewayv1.SubmitActionRequest{
		GameId:          s.gameID,
		Action:          action,
		ExpectedVersion: view.GetVersion() + 1,
		RequestId:       s.session.PlayerID + "-refused",
	}
	if _, err := call(ctx, s.session, s.session.Games.SubmitAction, request); err != nil {
		refusal := refusalOf(err)
		s.Refusal = &refusal
		fmt.Fprintf(os.Stderr, "refused on purpose: %s\n", refusal)
		return nil
	}
	return fmt.Errorf("a move for version %d was accepted at version %d", request.ExpectedVersion, view.GetVersion())
}
