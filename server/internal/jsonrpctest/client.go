// Package jsonrpctest is the calling side of a JSON-RPC connection for
// tests and load drivers: it sends requests over real framing and matches
// their answers, so that a server is tested from outside, as an editor
// speaks to it.
package jsonrpctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/graphcoder/graphcoder/server/jsonrpc"
)

// wire is an answer's shape.
type wire struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *jsonrpc.Error  `json:"error,omitempty"`
}

func idKey(id json.RawMessage) string { return string(bytes.TrimSpace(id)) }

// Client is the calling side of a connection: it sends requests and
// matches their answers. Tests and load drivers use it to speak to a
// server over real framing.
type Client struct {
	conn *jsonrpc.Conn

	mu      sync.Mutex
	nextID  int64
	waiting map[string]chan *wire
	err     error
	done    chan struct{}
}

// NewClient starts a client reading answers from r and writing requests to w.
func NewClient(r io.Reader, w io.Writer) *Client {
	c := &Client{conn: jsonrpc.NewConn(r, w, jsonrpc.Options{}), waiting: map[string]chan *wire{}, done: make(chan struct{})}
	go c.read()
	return c
}

func (c *Client) read() {
	defer close(c.done)
	for {
		body, err := c.conn.ReadFrame()
		if err != nil {
			c.fail(fmt.Errorf("read answer: %w", err))
			return
		}
		var m wire
		if json.Unmarshal(body, &m) != nil || m.Method != "" {
			continue // server notifications and requests are ignored
		}
		c.mu.Lock()
		ch := c.waiting[idKey(m.ID)]
		delete(c.waiting, idKey(m.ID))
		c.mu.Unlock()
		if ch != nil {
			ch <- &m
		}
	}
}

func (c *Client) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = err
	for k, ch := range c.waiting {
		close(ch)
		delete(c.waiting, k)
	}
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error { return c.conn.Notify(method, params) }

// WriteRaw sends a raw body with correct framing (for malformed messages).
func (c *Client) WriteRaw(body []byte) error { return c.conn.WriteFrame(body) }

// Answer is the outcome of a request Expect waits for.
type Answer struct {
	Result json.RawMessage
	Err    error
}

// Expect registers a wait for the answer whose id is id (its raw JSON
// text) and returns the channel it arrives on, for requests the test
// writes itself (unframed or misframed).
func (c *Client) Expect(id string) <-chan Answer {
	ch := make(chan *wire, 1)
	out := make(chan Answer, 1)
	c.mu.Lock()
	c.waiting[id] = ch
	c.mu.Unlock()
	go func() {
		m, ok := <-ch
		switch {
		case !ok:
			out <- Answer{Err: c.err}
		case m.Error != nil:
			out <- Answer{Err: m.Error}
		default:
			out <- Answer{Result: m.Result}
		}
	}()
	return out
}

// CallRaw sends body, framed but otherwise as given, and waits for the
// answer whose id is id (its raw JSON text; "null" for the answer to a
// message the server could not read), decoding its result into result.
func (c *Client) CallRaw(ctx context.Context, id string, body []byte, result any) error {
	ch, err := c.await(id)
	if err != nil {
		return err
	}
	if err := c.WriteRaw(body); err != nil {
		return err
	}
	select {
	case m, ok := <-ch:
		return c.answer(m, ok, result, "result")
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiting, id)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Call sends a request and waits for its answer. An error answer is
// returned as *Error. When ctx is done first, Call sends $/cancelRequest
// and waits for the server's answer.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	ch, err := c.await(strconv.FormatInt(id, 10))
	if err != nil {
		return err
	}
	body, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		return err
	}
	if err := c.conn.WriteFrame(body); err != nil {
		return err
	}
	var m *wire
	var ok bool
	select {
	case m, ok = <-ch:
	case <-ctx.Done():
		_ = c.Notify("$/cancelRequest", map[string]int64{"id": id})
		m, ok = <-ch
	}
	return c.answer(m, ok, result, "result of "+method)
}

// await registers a wait for the answer whose id is the raw JSON text id.
func (c *Client) await(id string) (chan *wire, error) {
	ch := make(chan *wire, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, c.err
	}
	c.waiting[id] = ch
	return ch, nil
}

// answer returns the error of the answer m (ok false: the connection
// ended) or decodes its result into result.
func (c *Client) answer(m *wire, ok bool, result any, what string) error {
	if !ok {
		return c.err
	}
	if m.Error != nil {
		return m.Error
	}
	if result != nil && len(m.Result) > 0 {
		if err := json.Unmarshal(m.Result, result); err != nil {
			return fmt.Errorf("decode %s: %w", what, err)
		}
	}
	return nil
}
