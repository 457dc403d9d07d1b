// Command play is a client of the board-game gateway written as any third party would, in Go: it
// knows the public API generated from protos/ and no game rules. It signs in as a guest, opens a
// lobby, fills the other seats with bots, starts the game and plays its seat to the end by picking
// among the labelled legal actions each view carries (each move's label goes to stderr). On its
// first turn it sends a move for a version the game has not reached, and reads the refusal's
// ErrorInfo (ABORTED, STALE_VERSION). At the end it checks the final scores, the revealed seed
// against the hash published at the start and a server-side replay, prints one JSON summary line
// and exits 0, or exits 1 on failure. Refused as RATE_LIMITED, it waits the delay the refusal gives
// and retries; a watch stream that ends before the game is over is opened again from the last
// version seen.
//
//	./build.sh && build/play -gateway 127.0.0.1:50050 -title puertorico -seats 4
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"time"

	gatewayv1 "boardgame/gateway/v1"
	"google.golang.org/grpc"
)

// Options are the command line's flags.
type Options struct {
	Gateway string
	Title   string
	Seats   int
	Seed    int64
	Timeout time.Duration
}

func parseOptions() Options {
	gateway := os.Getenv("GATEWAY_ADDRESS")
	if gateway == "" {
		gateway = "127.0.0.1:50050"
	}
	var options Options
	flag.StringVar(&options.Gateway, "gateway", gateway, "the gateway's host:port")
	flag.StringVar(&options.Title, "title", "puertorico", "the title to play")
	flag.IntVar(&options.Seats, "seats", 4, "seats at the table: this client holds one, bots the others")
	flag.Int64Var(&options.Seed, "seed", 1, "seed of the choices among the legal actions")
	flag.DurationVar(&options.Timeout, "timeout", 5*time.Minute, "how long the whole run may take")
	flag.Parse()
	return options
}

// Summary is the JSON line printed at the end.
type Summary struct {
	GameID            string            `json:"game_id"`
	Title             string            `json:"title"`
	Seats             int               `json:"seats"`
	Bots              int               `json:"bots"`
	MovesByThisClient int               `json:"moves_by_this_client"`
	WatchReopened     int               `json:"watch_streams_reopened"`
	Actions           int               `json:"actions"`
	Winners           []int32           `json:"winners"`
	Totals            []int32           `json:"totals"` // by seat
	ReplayConsistent  bool              `json:"replay_consistent"`
	RefusalCode       string            `json:"refusal_code"`
	RefusalReason     string            `json:"refusal_reason"`
	RefusalMetadata   map[string]string `json:"refusal_metadata"`
}

// openGame signs the host in, opens a lobby of the title with bots in every other seat and starts it;
// the game's id.
func openGame(ctx context.Context, host *Session, options Options) (string, error) {
	if err := host.signInAsGuest(ctx, "go-host"); err != nil {
		return "", err
	}
	titles, err := call(ctx, host, host.Catalog.ListTitles, &gatewayv1.ListTitlesRequest{})
	if err != nil {
		return "", fmt.Errorf("ListTitles: %w", err)
	}
	offered := false
	for _, title := range titles.GetTitles() {
		offered = offered || title.GetName() == options.Title
	}
	if !offered {
		return "", fmt.Errorf("the gateway does not offer %s", options.Title)
	}
	created, err := call(ctx, host, host.Lobbies.CreateLobby, &gatewayv1.CreateLobbyRequest{
		Title:     options.Title,
		SeatCount: int32(options.Seats),
		Seating:   gatewayv1.Seating_SEATING_FIXED,
	})
	if err != nil {
		return "", fmt.Errorf("CreateLobby: %w", err)
	}
	lobbyID := created.GetLobby().GetLobbyId()
	for bot := 1; bot < options.Seats; bot++ {
		request := &gatewayv1.AddBotRequest{LobbyId: lobbyID, Strength: gatewayv1.BotStrength_BOT_STRENGTH_RANDOM}
		if _, err := call(ctx, host, host.Lobbies.AddBot, request); err != nil {
			// An AddBot sent again after a lost connection may have been applied the first time: a full
			// lobby then has its bots.
			if refusalOf(err).Reason == "LOBBY_FULL" {
				break
			}
			return "", fmt.Errorf("AddBot: %w", err)
		}
	}
	started, err := call(ctx, host, host.Lobbies.StartGame, &gatewayv1.StartGameRequest{LobbyId: lobbyID})
	if err != nil {
		return "", fmt.Errorf("StartGame: %w", err)
	}
	return started.GetGameId(), nil
}

// checkFinished checks the finished game: final scores for every seat, the revealed seed matching
// the hash published at the start, a consistent replay; the number of actions it holds.
func checkFinished(ctx context.Context, host *Session, gameID string, final *gatewayv1.GameView, seats int) (int, error) {
	scores := final.GetScores()
	if !scores.GetFinal() || len(scores.GetScores()) != seats || len(scores.GetWinners()) == 0 {
		return 0, fmt.Errorf("no final scores for every seat: %v", scores)
	}
	for _, score := range scores.GetScores() {
		if score.GetSeat() < 0 || int(score.GetSeat()) >= seats {
			return 0, fmt.Errorf("a score for seat %d of %d seats", score.GetSeat(), seats)
		}
	}
	record, err := call(ctx, host, host.Games.GetGameRecord, &gatewayv1.GetGameRecordRequest{GameId: gameID})
	if err != nil {
		return 0, fmt.Errorf("GetGameRecord: %w", err)
	}
	seed := sha256.Sum256(record.GetRecord().GetSeed())
	seedHash := hex.EncodeToString(seed[:])
	if seedHash != record.GetRecord().GetSeedSha256() || seedHash != final.GetSeedSha256() {
		return 0, fmt.Errorf("the revealed seed does not match the hash published at the start")
	}
	actions := len(record.GetRecord().GetActions())
	replay, err := call(ctx, host, host.Games.ReplayGame, &gatewayv1.ReplayGameRequest{GameId: gameID})
	if err != nil {
		return 0, fmt.Errorf("ReplayGame: %w", err)
	}
	if !replay.GetConsistent() || int(replay.GetActionsReplayed()) != actions {
		return 0, fmt.Errorf("the replay is not consistent: %s", replay.GetMismatch())
	}
	return actions, nil
}

func run(options Options) (*Summary, error) {
	ctx, cancel := context.WithTimeout(context.Background(), options.Timeout)
	defer cancel()
	// grpc-go 1.33 (Debian's) has WithInsecure; later versions also take insecure.NewCredentials().
	conn, err := grpc.Dial(options.Gateway, grpc.WithInsecure())
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	host := newSession(conn)
	gameID, err := openGame(ctx, host, options)
	if err != nil {
		return nil, err
	}
	seat := newSeat(host, gameID, rand.New(rand.NewSource(options.Seed)))
	final, err := seat.play(ctx)
	if err != nil {
		return nil, err
	}
	if seat.Refusal == nil {
		return nil, fmt.Errorf("the game ended before this client's first turn: no refusal read")
	}
	actions, err := checkFinished(ctx, host, gameID, final, options.Seats)
	if err != nil {
		return nil, err
	}
	summary := &Summary{
		GameID:            gameID,
		Title:             options.Title,
		Seats:             options.Seats,
		Bots:              options.Seats - 1,
		MovesByThisClient: seat.Moves,
		WatchReopened:     seat.Reopened,
		Actions:           actions,
		Winners:           final.GetScores().GetWinners(),
		ReplayConsistent:  true,
		RefusalCode:       seat.Refusal.Code.String(),
		RefusalReason:     seat.Refusal.Reason,
		RefusalMetadata:   seat.Refusal.Metadata,
		Totals:            make([]int32, options.Seats),
	}
	for _, score := range final.GetScores().GetScores() {
		summary.Totals[score.GetSeat()] = score.GetTotal()
	}
	return summary, nil
}

func main() {
	summary, err := run(parseOptions())
	if err != nil {
		fmt.Fprintf(os.Stderr, "play failed: %v\n", err)
		os.Exit(1)
	}
	line, err := json.Marshal(summary)
	if err != nil {
		fmt.Fprintf(os.Stderr, "play failed: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(string(line))
}
