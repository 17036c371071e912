package loadtest

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/httpapi"
)

type fakeCompleter struct{}

func (fakeCompleter) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	return &server.Result{Prediction: "return x"}, nil
}

func TestRunAgainstLoopbackServer(t *testing.T) {
	root := t.TempDir()
	src := "def f(x):\n    y = x\n    return y\n"
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	svc, err := server.New(fakeCompleter{}, server.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewServer(httpapi.New(svc, httpapi.Options{}), nil)
	go srv.Serve(ln)
	defer srv.Close()

	bodies, err := Cursors(root, []string{"m.py"}, 20, 1)
	if err != nil || len(bodies) != 20 {
		t.Fatalf("cursors: %d, %v", len(bodies), err)
	}
	start := time.Now()
	rep, err := Run(context.Background(), Options{URL: "http://" + ln.Addr().String(), Duration: 300 * time.Millisecond, Bodies: bodies})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the run did not stop by itself")
	}
	if rep.Clients != 8 || rep.Requests == 0 || rep.Errors != 0 || rep.Median <= 0 || rep.P99 < rep.Median || rep.MemBefore == 0 {
		t.Fatalf("report %+v", rep)
	}
	t.Log(rep)

	// Errors are counted, not fatal.
	rep, err = Run(context.Background(), Options{URL: "http://" + ln.Addr().String(), Duration: 100 * time.Millisecond, Bodies: [][]byte{[]byte("{")}})
	if err != nil || rep.Errors == 0 || rep.FirstError == "" {
		t.Fatalf("bad bodies: %+v, %v", rep, err)
	}
}

func TestRunRefusesRemote(t *testing.T) {
	for _, u := range []string{"http://example.com:8420", "http://10.0.0.1:1", "http://0.0.0.0:8420", "::"} {
		if _, err := Run(context.Background(), Options{URL: u, Bodies: [][]byte{nil}}); err == nil {
			t.Errorf("%s accepted", u)
		}
	}
}

func TestProcessRSS(t *testing.T) {
	rss, err := ProcessRSS(os.Getpid())()
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	if rss < 1<<20 {
		t.Fatalf("rss %d", rss)
	}
}
