package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// server is a running graphcoder serve.
type server struct {
	cmd    *exec.Cmd
	addr   string // HTTP address, when served
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *bytes.Buffer
	done   chan struct{}
	wmu    sync.Mutex
	mu     sync.Mutex
	// answers by request id (LSP)
	answers map[int]chan map[string]any
}

// freeAddr returns a loopback address nobody listens on.
func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:18420"
	}
	defer ln.Close()
	return ln.Addr().String()
}

// startServe starts graphcoder serve with args; with lsp, its standard
// input and output are the LSP stream.
func (e *env) startServe(lsp bool, args ...string) (*server, error) {
	s := &server{stderr: &bytes.Buffer{}, done: make(chan struct{}), answers: map[int]chan map[string]any{}}
	full := []string{"serve"}
	if lsp {
		full = append(full, "--lsp")
	} else {
		s.addr = freeAddr()
		full = append(full, "--http", s.addr)
	}
	s.cmd = exec.Command(e.bin, append(full, args...)...)
	s.cmd.Stderr = s.stderr
	if lsp {
		in, err := s.cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := s.cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		s.stdin, s.stdout = in, bufio.NewReader(out)
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	if lsp {
		go s.readLSP()
		return s, nil
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if h, err := s.health(); err == nil && h["files"] != nil {
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("serve exited: %s", s.stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	s.kill()
	return nil, fmt.Errorf("serve not ready: %s", s.stderr.String())
}

func (s *server) health() (map[string]any, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get("http://" + s.addr + "/v1/health")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var v map[string]any
	err = json.NewDecoder(resp.Body).Decode(&v)
	return v, err
}

func (s *server) kill() {
	s.cmd.Process.Kill()
	<-s.done
}

// stop sends SIGINT and reports whether serve exited within limit.
func (s *server) stop(limit time.Duration) bool {
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
		return true
	case <-time.After(limit):
		s.kill()
		return false
	}
}

// crashed reports whether the serve process died of a runtime crash.
func (s *server) crashed() bool {
	select {
	case <-s.done:
	default:
		return false
	}
	st := s.cmd.ProcessState
	ws, _ := st.Sys().(syscall.WaitStatus)
	out := s.stderr.String()
	return ws.Signaled() && ws.Signal() != syscall.SIGKILL && ws.Signal() != os.Interrupt ||
		st.ExitCode() == 2 || strings.Contains(out, "panic:") || strings.Contains(out, "fatal error:")
}

// cpu returns the process's CPU time, and hwm its peak RSS in bytes.
func (s *server) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	k, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

func (s *server) hwm() int64 { return s.status("VmHWM") }

// status returns a field of the server's /proc status counted in kB, in
// bytes, or 0.
func (s *server) status(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field+":") {
			n, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return n << 10
		}
	}
	return 0
}

// resetPeak makes the server's VmHWM its resident size now, and reports
// whether the kernel allowed it.
func (s *server) resetPeak() bool {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", s.cmd.Process.Pid), []byte("5"), 0) == nil
}

// writeRaw writes bytes to the LSP stream.
func (s *server) writeRaw(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_, err := s.stdin.Write(b)
	return err
}

func frame(body string) []byte {
	return []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

// call sends an LSP request and waits up to limit for its answer.
func (s *server) call(id int, method string, params any, limit time.Duration) (map[string]any, error) {
	ch := make(chan map[string]any, 1)
	s.mu.Lock()
	s.answers[id] = ch
	s.mu.Unlock()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err := s.writeRaw(frame(string(body))); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		return m, nil
	case <-time.After(limit):
		return nil, fmt.Errorf("no answer to %s within %v", method, limit)
	case <-s.done:
		return nil, fmt.Errorf("serve exited")
	}
}

func (s *server) notify(method string, params any) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	return s.writeRaw(frame(string(body)))
}

// readLSP reads framed messages and routes answers by id.
func (s *server) readLSP() {
	for {
		length := -1
		for {
			line, err := s.stdout.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if name, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(name, "Content-Length") {
				length, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if length < 0 {
			continue
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.stdout, body); err != nil {
			return
		}
		var m map[string]any
		if json.Unmarshal(body, &m) != nil {
			continue
		}
		id, ok := m["id"].(float64)
		if !ok {
			continue
		}
		s.mu.Lock()
		ch := s.answers[int(id)]
		delete(s.answers, int(id))
		s.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// initialize runs the LSP handshake.
func (s *server) initialize(root string) error {
	if _, err := s.call(1, "initialize", map[string]any{"rootUri": "file://" + root, "capabilities": map[string]any{}}, time.Minute); err != nil {
		return err
	}
	return s.notify("initialized", map[string]any{})
}

// shutdownExit ends an LSP session and reports whether serve exited with
// status 0 within limit.
func (s *server) shutdownExit(limit time.Duration) bool {
	s.call(9999, "shutdown", nil, limit)
	s.notify("exit", nil)
	select {
	case <-s.done:
		return s.cmd.ProcessState.ExitCode() == 0
	case <-time.After(limit):
		s.kill()
		return false
	}
}

func completionParams(path string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": "file://" + filepath.ToSlash(path)},
		"position": map[string]any{"line": line, "character": char}}
}

// postCompletion posts a Tabby completion request and returns the status.
func (s *server) postCompletion(body []byte, limit time.Duration) (int, string, error) {
	c := http.Client{Timeout: limit}
	resp, err := c.Post("http://"+s.addr+"/v1/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func completionBody(path, prefix, suffix string) []byte {
	b, _ := json.Marshal(map[string]any{"language": "python",
		"segments": map[string]string{"prefix": prefix, "suffix": suffix, "filepath": path}})
	return b
}
