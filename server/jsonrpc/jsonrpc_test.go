package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server/internal/jsonrpctest"
	"github.com/graphcoder/graphcoder/server/jsonrpc"
)

// pair starts a server with handler h behind io.Pipe and returns a client.
func pair(t *testing.T, opts jsonrpc.Options, h jsonrpc.Handler) (*jsonrpctest.Client, <-chan error) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	srv := jsonrpc.NewConn(sr, sw, opts)
	done := make(chan error, 1)
	go func() {
		err := srv.Serve(context.Background(), h)
		sw.Close()
		done <- err
	}()
	t.Cleanup(func() { cw.Close() })
	return jsonrpctest.NewClient(cr, cw), done
}

func testHandler(ctx context.Context, req *jsonrpc.Request) (jsonrpc.Work, error) {
	switch req.Method {
	case "echo":
		var v any
		if err := json.Unmarshal(req.Params, &v); err != nil {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%v", err)
		}
		return jsonrpc.Value(v), nil
	case "block":
		return func(ctx context.Context) (any, error) {
			<-ctx.Done()
			return "too late", nil
		}, nil
	case "panic":
		return func(ctx context.Context) (any, error) { panic("boom") }, nil
	case "panicSync":
		panic("sync boom")
	case "exit":
		return nil, jsonrpc.ErrClose
	case "note":
		return nil, nil
	}
	return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method not found: %s", req.Method)
}

func wantCode(t *testing.T, err error, code int64) {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("got error %v, want code %d", err, code)
	}
}

func TestServeBadMessagesKeepServing(t *testing.T) {
	c, _ := pair(t, jsonrpc.Options{MaxMessage: 1 << 10}, testHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	echo := func() {
		t.Helper()
		var got string
		if err := c.Call(ctx, "echo", "hi", &got); err != nil || got != "hi" {
			t.Fatalf("echo = %q, %v", got, err)
		}
	}
	echo()
	tests := []struct {
		name string
		id   string
		body string
		code int64
	}{
		{"malformed json", "null", `{"jsonrpc":"2.0","id":1,"method":`, jsonrpc.CodeParseError},
		{"unknown method", "7", `{"jsonrpc":"2.0","id":7,"method":"nope"}`, jsonrpc.CodeMethodNotFound},
		{"bad params json", "null", `{"jsonrpc":"2.0","id":8,"method":"echo","params":{]}`, jsonrpc.CodeParseError},
		{"echo without params", "13", `{"jsonrpc":"2.0","id":13,"method":"echo"}`, jsonrpc.CodeInvalidParams},
		{"no method", "9", `{"jsonrpc":"2.0","id":9}`, jsonrpc.CodeInvalidRequest},
		{"object id", "null", `{"jsonrpc":"2.0","id":{},"method":"echo"}`, jsonrpc.CodeInvalidRequest},
		{"huge", "null", `{"jsonrpc":"2.0","id":10,"method":"echo","params":"` + strings.Repeat("x", 4<<10) + `"}`, jsonrpc.CodeInvalidRequest},
		{"panic in work", "11", `{"jsonrpc":"2.0","id":11,"method":"panic"}`, jsonrpc.CodeInternalError},
		{"panic in handler", "12", `{"jsonrpc":"2.0","id":"12","method":"panicSync"}`, jsonrpc.CodeInternalError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := tt.id
			if tt.name == "panic in handler" {
				id = `"12"`
			}
			wantCode(t, c.CallRaw(ctx, id, []byte(tt.body), nil), tt.code)
			echo()
		})
	}
	// Unknown notifications are ignored silently; the next call still works.
	if err := c.Notify("nope/notification", nil); err != nil {
		t.Fatal(err)
	}
	echo()
}

func TestServeMissingContentLength(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go jsonrpc.NewConn(sr, sw, jsonrpc.Options{}).Serve(context.Background(), testHandler)
	defer cw.Close()
	c := jsonrpctest.NewClient(cr, cw)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := io.WriteString(cw, "X-Nothing: 1\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := c.Call(ctx, "echo", "still", &got); err != nil || got != "still" {
		t.Fatalf("echo after bad header = %q, %v", got, err)
	}
}

func TestCancelMidFlight(t *testing.T) {
	c, _ := pair(t, jsonrpc.Options{}, testHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	wantCode(t, c.Call(ctx, "block", nil, nil), jsonrpc.CodeRequestCancelled)
	var got string
	if err := c.Call(context.Background(), "echo", "after", &got); err != nil || got != "after" {
		t.Fatalf("echo after cancel = %q, %v", got, err)
	}
}

func TestParallelBound(t *testing.T) {
	// With one slot, a blocked request holds it: a second request waits
	// and is answered once the first is cancelled.
	c, _ := pair(t, jsonrpc.Options{Parallel: 1}, testHandler)
	ctx1, cancel1 := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { first <- c.Call(ctx1, "block", nil, nil) }()
	time.Sleep(20 * time.Millisecond)
	second := make(chan error, 1)
	go func() { second <- c.Call(context.Background(), "echo", "x", nil) }()
	select {
	case err := <-second:
		t.Fatalf("second request ran past the bound: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	cancel1()
	wantCode(t, <-first, jsonrpc.CodeRequestCancelled)
	if err := <-second; err != nil {
		t.Fatal(err)
	}
}

func TestCloseEndsServe(t *testing.T) {
	c, done := pair(t, jsonrpc.Options{}, testHandler)
	if err := c.Notify("exit", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Serve did not return after jsonrpc.ErrClose")
	}
}

// Both ends of a connection call each other: a request's jsonrpc.Work calls back
// to the peer and answers with what it got.
func TestCallBothWays(t *testing.T) {
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	a, b := jsonrpc.NewConn(ar, aw, jsonrpc.Options{}), jsonrpc.NewConn(br, bw, jsonrpc.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 2)
	go func() {
		done <- a.Serve(ctx, func(ctx context.Context, req *jsonrpc.Request) (jsonrpc.Work, error) {
			if req.Method == "name" {
				return jsonrpc.Value("a"), nil
			}
			return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "no %s", req.Method)
		})
	}()
	go func() {
		done <- b.Serve(ctx, func(ctx context.Context, req *jsonrpc.Request) (jsonrpc.Work, error) {
			if req.Method == "block" {
				return func(ctx context.Context) (any, error) { <-ctx.Done(); return nil, ctx.Err() }, nil
			}
			return func(ctx context.Context) (any, error) {
				var peer string
				if err := b.Call(ctx, "name", nil, &peer); err != nil {
					return nil, err
				}
				return "b greets " + peer, nil
			}, nil
		})
	}()
	cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
	defer ccancel()
	var got string
	if err := a.Call(cctx, "greet", map[string]int{"n": 1}, &got); err != nil || got != "b greets a" {
		t.Fatalf("got %q, %v", got, err)
	}
	// An error answer comes back as a *jsonrpc.Error.
	var e *jsonrpc.Error
	if err := b.Call(cctx, "nothing", nil, nil); !errors.As(err, &e) || e.Code != jsonrpc.CodeMethodNotFound {
		t.Fatalf("error answer: %v", err)
	}
	// A call waiting when the connection ends gets jsonrpc.ErrClosed, and so does
	// one made after.
	waiting := make(chan error, 1)
	go func() { waiting <- a.Call(ctx, "block", nil, nil) }()
	time.Sleep(20 * time.Millisecond)
	bw.Close() // a reads the end of the stream
	select {
	case err := <-waiting:
		if !errors.Is(err, jsonrpc.ErrClosed) {
			t.Fatalf("call waiting at the end: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a call on a closed connection did not return")
	}
	if err := a.Call(ctx, "x", nil, nil); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("call after the end: %v", err)
	}
	aw.Close()
	cancel()
	<-done
	<-done
}

// frame returns body framed with the given Content-Length.
func frame(length int, body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", length, body)
}

// TestFramingResync sends frames an attacker or a buggy client might: a
// Content-Length 10 bytes short or long, a header block without
// Content-Length, garbage between frames, a 10 MB header line. Each costs
// at most its own message: the next frame is answered, and exit closes the
// connection.
func TestFramingResync(t *testing.T) {
	echo := func(id int, v string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"echo","params":%q}`, id, v)
	}
	long := echo(2, "long")
	tests := []struct {
		name   string
		stream string
	}{
		{"content-length 10 short", frame(len(echo(2, "short"))-10, echo(2, "short"))},
		{"content-length 10 long", frame(len(long)+10, long)},
		{"no content-length", "Content-Type: application/json\r\n\r\n" + echo(2, "headless")},
		{"garbage between frames", "{}}}garbage\r\nmore garbage: !\r\n\x00\x01"},
		{"bad content-length", "Content-Length: lots\r\n\r\n" + echo(2, "bad")},
		{"10 MB header line", "X-Huge: " + strings.Repeat("h", 10<<20) + "\r\n\r\n"},
		{"10 MB line of garbage", strings.Repeat("g", 10<<20) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stream := []byte(tt.stream)
			// Counted from before the connection exists, so that a reader
			// sized to hold a huge line counts too.
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			cr, sw := io.Pipe()
			sr, cw := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- jsonrpc.NewConn(sr, sw, jsonrpc.Options{}).Serve(context.Background(), testHandler) }()
			defer cw.Close()
			c := jsonrpctest.NewClient(cr, cw)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			// The bad stream goes first, whole, then the call: written from
			// a goroutine, the call's frame could come before it (the pipe
			// orders whole writes, not their goroutines), and a stream
			// without a final line end would then swallow the exit after it.
			if _, err := cw.Write(stream); err != nil {
				t.Fatal(err)
			}
			var got string
			if err := c.Call(ctx, "echo", "after", &got); err != nil || got != "after" {
				t.Fatalf("echo after the bad frame = %q, %v", got, err)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 4<<20 && len(tt.stream) > 1<<20 {
				t.Errorf("reading the stream allocated %d MB", grown>>20)
			}
			if err := c.Notify("exit", nil); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Serve = %v after exit", err)
				}
			case <-ctx.Done():
				t.Fatal("exit was swallowed")
			}
		})
	}
}

// A frame whose Content-Length is too long is still answered when the
// next frame follows it: its header is given back to the stream.
func TestFramingTooLongIsAnswered(t *testing.T) {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go jsonrpc.NewConn(sr, sw, jsonrpc.Options{}).Serve(context.Background(), testHandler)
	defer cw.Close()
	c := jsonrpctest.NewClient(cr, cw)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := `{"jsonrpc":"2.0","id":41,"method":"echo","params":"first"}`
	next := `{"jsonrpc":"2.0","id":42,"method":"echo","params":"second"}`
	first, second := c.Expect("41"), c.Expect("42")
	io.WriteString(cw, frame(len(body)+10, body)+frame(len(next), next))
	for _, ch := range []<-chan jsonrpctest.Answer{first, second} {
		select {
		case a := <-ch:
			if a.Err != nil {
				t.Error(a.Err)
			}
		case <-ctx.Done():
			t.Fatal("no answer")
		}
	}
}
