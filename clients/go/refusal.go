package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Refusal is what a refused call says: its gRPC code and message, and the reason and metadata of the
// google.rpc.ErrorInfo the gateway puts in the grpc-status-details-bin trailer (empty when the
// refusal came from gRPC itself, such as a deadline).
type Refusal struct {
	Code     codes.Code
	Message  string
	Reason   string
	Metadata map[string]string
}

// refusalOf reads the refusal an error carries.
func refusalOf(err error) Refusal {
	st := status.Convert(err)
	refusal := Refusal{Code: st.Code(), Message: st.Message(), Metadata: map[string]string{}}
	for _, detail := range st.Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok {
			refusal.Reason = info.GetReason()
			for key, value := range info.GetMetadata() {
				refusal.Metadata[key] = value
			}
		}
	}
	return refusal
}

// String is the refusal in one line: code, reason, metadata in key order, message.
func (r Refusal) String() string {
	keys := make([]string, 0, len(r.Metadata))
	for key := range r.Metadata {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	pairs := make([]string, len(keys))
	for i, key := range keys {
		pairs[i] = key + "=" + r.Metadata[key]
	}
	return fmt.Sprintf("%s %s {%s}: %s", r.Code, r.Reason, strings.Join(pairs, ", "), r.Message)
}

// defaultRetryAfter is the wait when a RATE_LIMITED refusal does not say how long.
const defaultRetryAfter = time.Second

// rateLimitDelay is how long a RATE_LIMITED refusal asks to wait (its retry_after_ms), and whether
// the error is one.
func rateLimitDelay(err error) (time.Duration, bool) {
	refusal := refusalOf(err)
	if refusal.Code != codes.ResourceExhausted || refusal.Reason != "RATE_LIMITED" {
		return 0, false
	}
	ms, parseErr := strconv.Atoi(refusal.Metadata["retry_after_ms"])
	if parseErr != nil {
		return defaultRetryAfter, true
	}
	return time.Duration(ms) * time.Millisecond, true
}
