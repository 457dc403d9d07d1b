package main

import (
	"context"
	"fmt"
	"os"
	"time"

	gatewayv1 "boardgame/gateway/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
)

const (
	callTimeout         = 30 * time.Second
	maxRateLimitedTries = 50
	reconnectFirst      = 100 * time.Millisecond
	reconnectMax        = 5 * time.Second
	maxReconnectsInARow = 20
)

// Session is one player signed in: every gateway service over one connection, with its token.
type Session struct {
	Accounts gatewayv1.AccountServiceClient
	Catalog  gatewayv1.CatalogServiceClient
	Lobbies  gatewayv1.LobbyServiceClient
	Games    gatewayv1.GameServiceClient
	PlayerID string
	token    string
}

func newSession(conn *grpc.ClientConn) *Session {
	return &Session{
		Accounts: gatewayv1.NewAccountServiceClient(conn),
		Catalog:  gatewayv1.NewCatalogServiceClient(conn),
		Lobbies:  gatewayv1.NewLobbyServiceClient(conn),
		Games:    gatewayv1.NewGameServiceClient(conn),
	}
}

// authorized is ctx carrying this session's bearer token (once signed in).
func (s *Session) authorized(ctx context.Context) context.Context {
	if s.token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+s.token)
}

// backoff is the pause before reconnecting after `lost` failures in a row.
func backoff(lost int) time.Duration {
	delay := reconnectFirst << uint(lost)
	if delay > reconnectMax || delay <= 0 {
		return reconnectMax
	}
	return delay
}

// call runs one unary call with the token and a deadline. Refused as RATE_LIMITED, it is sent again
// after the delay the refusal gives (a refused call changed nothing); UNAVAILABLE (the connection was
// lost), after a growing pause (a move carries its request_id, so it is applied once).
func call[Req any, Res any](ctx context.Context, s *Session, method func(context.Context, Req, ...grpc.CallOption) (Res, error), request Req) (Res, error) {
	lost := 0
	for attempt := 0; ; attempt++ {
		callCtx, cancel := context.WithTimeout(s.authorized(ctx), callTimeout)
		response, err := method(callCtx, request)
		cancel()
		if err == nil {
			return response, nil
		}
		delay, limited := rateLimitDelay(err)
		if limited {
			fmt.Fprintf(os.Stderr, "rate limited: retrying in %v\n", delay)
		} else if refusalOf(err).Code == codes.Unavailable && lost < maxReconnectsInARow {
			delay, limited = backoff(lost), true
			lost++
		}
		if !limited || attempt >= maxRateLimitedTries {
			return response, err
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return response, ctx.Err()
		}
	}
}

// signInAsGuest creates a guest player and keeps its token.
func (s *Session) signInAsGuest(ctx context.Context, name string) error {
	response, err := call(ctx, s, s.Accounts.CreateGuest, &gatewayv1.CreateGuestRequest{DisplayName: name})
	if err != nil {
		return fmt.Errorf("CreateGuest: %w", err)
	}
	s.token = response.GetSession().GetToken()
	s.PlayerID = response.GetSession().GetPlayer().GetPlayerId()
	return nil
}
