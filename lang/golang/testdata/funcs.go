package p

import "sync"

type Server struct {
	mu    sync.Mutex
	conns map[string]*Conn
}

// Close closes every connection and reports the first error.
func (s *Server) Close(force bool) (n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, c := range s.conns {
		if cerr := c.Close(); cerr != nil && err == nil {
			err = cerr
		}
		delete(s.conns, name)
		n++
	}
	return n, err
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func spawn(jobs []func() error, wg *sync.WaitGroup) {
	for _, job := range jobs {
		wg.Add(1)
		go func(j func() error) {
			defer wg.Done()
			if err := j(); err != nil {
				panic(err)
			}
		}(job)
	}
	cleanup := func() { wg.Wait() }
	defer cleanup()
	sum := func(a, b int) int { return a + b }
	_ = sum(1, 2)
}

func variadic(format string, args ...any) {}

func stub(x int) int
