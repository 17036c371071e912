package jsonrpc

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// Error codes of JSON-RPC 2.0 and of the Language Server Protocol.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestFailed        = -32803
	CodeRequestCancelled     = -32800
)

// Error is a JSON-RPC error object; handlers return it to choose the code.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message) }

// Errorf returns an *Error with the given code.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrClose, returned by a handler, stops [Conn.Serve] after the message.
var ErrClose = errors.New("jsonrpc: close connection")

// Request is an incoming request or notification.
type Request struct {
	Method string
	Params json.RawMessage
	// ID is the raw request id; nil for a notification.
	ID json.RawMessage
}

// IsNotify reports whether the message expects no answer.
func (r *Request) IsNotify() bool { return r.ID == nil }

// Work is the deferred part of a request, run concurrently with others.
type Work func(ctx context.Context) (any, error)

// Handler handles every incoming message in arrival order on the reading
// goroutine; it must be quick. For a request it returns the Work that
// computes the answer (nil answers null). Errors answer the request (or are
// logged for a notification); ErrClose ends the connection.
type Handler func(ctx context.Context, req *Request) (Work, error)

// Value returns Work that answers v.
func Value(v any) Work { return func(context.Context) (any, error) { return v, nil } }

// Options configure a [Conn].
type Options struct {
	// MaxMessage is the largest accepted message body (default 16 MiB);
	// larger ones are skipped and answered with an error.
	MaxMessage int
	// Parallel bounds concurrently running Work (default 2*GOMAXPROCS).
	Parallel int
	// Logger receives protocol errors and recovered panics (default: discarded).
	Logger *log.Logger
}

// Conn is one JSON-RPC connection.
type Conn struct {
	r    *bufio.Reader
	opts Options
	log  *log.Logger

	wmu sync.Mutex
	w   io.Writer

	mu      sync.Mutex
	pending map[string]context.CancelFunc
	// calls are the requests sent to the peer awaiting its answer, by id;
	// closed is set once Serve has returned.
	calls  map[string]chan *wire
	nextID int64
	closed bool
}

// NewConn returns a connection reading r and writing w.
func NewConn(r io.Reader, w io.Writer, opts Options) *Conn {
	if opts.MaxMessage <= 0 {
		opts.MaxMessage = 16 << 20
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 2 * runtime.GOMAXPROCS(0)
	}
	lg := opts.Logger
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	return &Conn{r: bufio.NewReaderSize(r, MaxHeaderLine), w: w, opts: opts, log: lg, pending: map[string]context.CancelFunc{}, calls: map[string]chan *wire{}}
}

// wire is the union of every message shape.
type wire struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// errFraming reports input that is not a valid frame: a header block
// without a usable Content-Length, a header line over the limit, or bytes
// between frames. The reader resynchronises on the next header.
type errFraming struct{ msg string }

func (e *errFraming) Error() string { return e.msg }

// errTooLarge reports a body over the limit, already skipped.
type errTooLarge struct{ n int }

func (e *errTooLarge) Error() string {
	return fmt.Sprintf("message of %d bytes exceeds the limit", e.n)
}

// MaxHeaderLine bounds one header line; a longer line is skipped up to its
// end without being held in memory. (LSP headers are tens of bytes.)
const MaxHeaderLine = 4 << 10

// contentLength is the one header LSP requires, matched without case.
const contentLength = "content-length:"

// readLine returns the next line without its terminator, or errFraming
// (after skipping the line) when it is over MaxHeaderLine.
func (c *Conn) readLine() (string, error) {
	line, err := c.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull {
			_, err = c.r.ReadSlice('\n')
		}
		if err != nil {
			return "", io.ErrUnexpectedEOF
		}
		return "", &errFraming{msg: fmt.Sprintf("header line over %d bytes skipped", MaxHeaderLine)}
	}
	if err != nil {
		if err == io.EOF && len(line) == 0 {
			return "", io.EOF
		}
		return "", io.ErrUnexpectedEOF
	}
	return strings.TrimRight(string(line), "\r\n"), nil
}

// headerLine splits a "Name: value" header, whose name is a token.
func headerLine(line string) (name, value string, ok bool) {
	name, value, ok = strings.Cut(line, ":")
	if !ok || name == "" {
		return "", "", false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", "", false
		}
	}
	return name, strings.TrimSpace(value), true
}

// readMessage reads one framed message body. Input that is not a frame is
// skipped up to the next Content-Length header, even one glued to the end
// of a garbage line (what a frame whose Content-Length was too short
// leaves behind), and reported once as errFraming, so one bad frame costs
// that frame only.
func (c *Conn) readMessage() ([]byte, error) {
	length := -1
	inBlock := false // a header line was read: a blank line ends the block
	junk := false    // bytes that belong to no frame were skipped
	bad := ""        // why the current header block is unusable
	for {
		line, err := c.readLine()
		var fe *errFraming
		if errors.As(err, &fe) {
			if inBlock {
				bad = fe.msg
			} else {
				junk = true
			}
			continue
		}
		if err != nil {
			if err == io.EOF && !inBlock && !junk {
				return nil, io.EOF
			}
			return nil, io.ErrUnexpectedEOF
		}
		if i := strings.Index(strings.ToLower(line), contentLength); i > 0 {
			// A header after garbage: the garbage is dropped, and a block
			// in progress was no frame.
			junk, inBlock, length, bad = true, false, -1, ""
			line = line[i:]
		}
		if line == "" {
			if !inBlock {
				continue // stray blank line between messages
			}
			break
		}
		name, value, ok := headerLine(line)
		switch {
		case !ok && !inBlock:
			junk = true // not a header: skip it
			continue
		case !ok:
			bad = "malformed header line"
		case strings.EqualFold(name, "Content-Length"):
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 {
				bad = "invalid Content-Length header"
			} else {
				length = n
			}
		}
		inBlock = true
	}
	if bad == "" && length < 0 {
		bad = "header block without Content-Length"
	}
	if bad != "" {
		return nil, &errFraming{msg: bad}
	}
	if length > c.opts.MaxMessage {
		if _, err := io.CopyN(io.Discard, c.r, int64(length)); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, &errTooLarge{n: length}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	if junk {
		c.log.Printf("jsonrpc: skipped bytes that belong to no frame")
	}
	return c.salvage(body), nil
}

// salvage handles a Content-Length that was too long: when body is one
// JSON value followed by the start of the next frame's header, the header
// is put back in front of the stream and the value alone is returned.
func (c *Conn) salvage(body []byte) []byte {
	if json.Valid(body) {
		return body
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return body
	}
	rest := bytes.TrimLeft(body[dec.InputOffset():], " \t\r\n")
	if n := min(len(rest), len(contentLength)); n == 0 || !strings.EqualFold(string(rest[:n]), contentLength[:n]) {
		return body
	}
	c.r = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(rest), c.r), MaxHeaderLine)
	c.log.Printf("jsonrpc: a frame's Content-Length was %d bytes too long", len(rest))
	return body[:dec.InputOffset()]
}

// ReadFrame reads the next framed message body, as Serve does (for the
// calling side of a connection, which reads answers).
func (c *Conn) ReadFrame() ([]byte, error) { return c.readMessage() }

// WriteFrame sends body, framed but otherwise as given.
func (c *Conn) WriteFrame(body []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	if _, err := c.w.Write(body); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	return nil
}

// write sends one framed message.
func (c *Conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	return c.WriteFrame(body)
}

// Notify sends a notification to the peer.
func (c *Conn) Notify(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

// ErrClosed is returned by [Conn.Call] when the connection ends before
// the peer answers.
var ErrClosed = errors.New("jsonrpc: connection closed")

// Call sends a request to the peer (a server's request to its client,
// such as LSP's window/workDoneProgress/create) and waits for the answer,
// decoding its result into result unless that is nil. The answer is read
// by [Conn.Serve], which must be running; so Call must not be made from a
// Handler, which runs on the reading goroutine, only from Work or another
// goroutine. An error answer is returned as an *Error.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.nextID++
	id := json.RawMessage(strconv.Quote("s" + strconv.FormatInt(c.nextID, 10)))
	ch := make(chan *wire, 1)
	c.calls[idKey(id)] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.calls, idKey(id))
		c.mu.Unlock()
	}()
	err := c.write(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  any             `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case m, ok := <-ch:
		switch {
		case !ok:
			return ErrClosed
		case m.Error != nil:
			return m.Error
		case result != nil && len(m.Result) > 0:
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("decode answer to %s: %w", method, err)
			}
		}
		return nil
	}
}

// deliver hands an answer to the Call waiting for it, reporting whether
// one was.
func (c *Conn) deliver(m *wire) bool {
	c.mu.Lock()
	ch := c.calls[idKey(m.ID)]
	delete(c.calls, idKey(m.ID))
	c.mu.Unlock()
	if ch == nil {
		return false
	}
	ch <- m
	return true
}

// closeCalls ends every waiting Call with ErrClosed.
func (c *Conn) closeCalls() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for k, ch := range c.calls {
		close(ch)
		delete(c.calls, k)
	}
}

func (c *Conn) reply(id json.RawMessage, result any, err error) {
	resp := response{JSONRPC: "2.0", ID: id}
	if id == nil {
		resp.ID = json.RawMessage("null")
	}
	if err != nil {
		var e *Error
		switch {
		case errors.As(err, &e):
			resp.Error = e
		case errors.Is(err, context.Canceled):
			resp.Error = Errorf(CodeRequestCancelled, "request cancelled")
		default:
			resp.Error = Errorf(CodeRequestFailed, "%v", err)
		}
	} else if result == nil {
		resp.Result = json.RawMessage("null")
	} else {
		resp.Result = result
	}
	if werr := c.write(resp); werr != nil {
		c.log.Printf("jsonrpc: %v", werr)
	}
}

// idKey normalises a request id for the cancellation table.
func idKey(id json.RawMessage) string { return string(bytes.TrimSpace(id)) }

// Cancel cancels the request with the given raw id, if it is running.
func (c *Conn) Cancel(id json.RawMessage) {
	c.mu.Lock()
	cancel := c.pending[idKey(id)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Serve reads and handles messages until the stream ends, ctx is done or a
// handler returns ErrClose, then waits for running requests. A clean end
// of stream or ErrClose returns nil.
func (c *Conn) Serve(ctx context.Context, h Handler) error {
	// On return, running requests are cancelled first, then awaited.
	var wg sync.WaitGroup
	defer wg.Wait()
	defer c.closeCalls()
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	sem := make(chan struct{}, c.opts.Parallel)

	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		body, err := c.readMessage()
		if err != nil {
			var fe *errFraming
			var te *errTooLarge
			switch {
			case errors.Is(err, io.EOF):
				return nil
			case errors.As(err, &fe):
				c.log.Printf("jsonrpc: %v", err)
				c.reply(nil, nil, Errorf(CodeParseError, "%v", err))
				continue
			case errors.As(err, &te):
				c.log.Printf("jsonrpc: %v", err)
				c.reply(nil, nil, Errorf(CodeInvalidRequest, "%v", err))
				continue
			default:
				return fmt.Errorf("read message: %w", err)
			}
		}
		var m wire
		if err := json.Unmarshal(body, &m); err != nil {
			c.log.Printf("jsonrpc: malformed message: %v", err)
			c.reply(nil, nil, Errorf(CodeParseError, "malformed JSON: %v", err))
			continue
		}
		if m.Method == "" {
			// An answer to a Call, to a request we never sent, or garbage.
			if m.Result == nil && m.Error == nil {
				c.reply(m.ID, nil, Errorf(CodeInvalidRequest, "message has no method"))
			} else if len(m.ID) > 0 && !c.deliver(&m) {
				c.log.Printf("jsonrpc: answer to no request of ours: id %s", m.ID)
			}
			continue
		}
		if len(m.ID) > 0 && (m.ID[0] == '{' || m.ID[0] == '[' || string(m.ID) == "null") {
			c.reply(nil, nil, Errorf(CodeInvalidRequest, "invalid id %s", m.ID))
			continue
		}
		req := &Request{Method: m.Method, Params: m.Params, ID: m.ID}
		if len(req.ID) == 0 {
			req.ID = nil
		}
		if req.Method == "$/cancelRequest" {
			var p struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(req.Params, &p) == nil && p.ID != nil {
				c.Cancel(p.ID)
			}
			continue
		}
		rctx, cancel := context.WithCancel(ctx)
		work, err := c.handle(rctx, h, req)
		if errors.Is(err, ErrClose) {
			cancel()
			return nil
		}
		if req.IsNotify() {
			cancel()
			if err != nil {
				c.log.Printf("jsonrpc: %s: %v", req.Method, err)
			}
			continue
		}
		if err != nil || work == nil {
			cancel()
			c.reply(req.ID, nil, err)
			continue
		}
		key := idKey(req.ID)
		c.mu.Lock()
		c.pending[key] = cancel
		c.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				c.mu.Lock()
				delete(c.pending, key)
				c.mu.Unlock()
				cancel()
			}()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-rctx.Done():
				c.reply(req.ID, nil, rctx.Err())
				return
			}
			res, err := c.run(rctx, req, work)
			if err == nil && rctx.Err() != nil {
				err = rctx.Err() // cancelled mid-flight: do not send a stale answer
			}
			c.reply(req.ID, res, err)
		}()
	}
}

// handle runs the synchronous phase, turning a panic into an error.
func (c *Conn) handle(ctx context.Context, h Handler, req *Request) (w Work, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Printf("jsonrpc: panic handling %s: %v\n%s", req.Method, p, debug.Stack())
			w, err = nil, Errorf(CodeInternalError, "internal error handling %s", req.Method)
		}
	}()
	return h(ctx, req)
}

// run runs a request's Work, turning a panic into an error.
func (c *Conn) run(ctx context.Context, req *Request, w Work) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Printf("jsonrpc: panic in %s: %v\n%s", req.Method, p, debug.Stack())
			res, err = nil, Errorf(CodeInternalError, "internal error in %s", req.Method)
		}
	}()
	return w(ctx)
}
