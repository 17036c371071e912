package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/graphcoder/graphcoder/indexer"
)

// progressPrinter shows build progress on stderr: a redrawn bar on a
// terminal, otherwise a plain line every two seconds.
type progressPrinter struct {
	w        io.Writer
	tty      bool
	width    int
	mu       sync.Mutex
	last     time.Time
	drawn    bool
	interval time.Duration
}

func newProgressPrinter(w io.Writer) *progressPrinter {
	p := &progressPrinter{w: w, interval: 2 * time.Second, width: 80}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		p.interval = 100 * time.Millisecond
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.width = cols
		}
	}
	return p
}

func (p *progressPrinter) update(pr indexer.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	final := pr.Phase == "publish"
	if !final && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	if pr.Phase == "walk" {
		if !p.tty {
			fmt.Fprintln(p.w, "walking the repository")
		}
		return
	}
	frac := 1.0
	if pr.BytesTotal > 0 {
		frac = float64(pr.BytesDone) / float64(pr.BytesTotal)
	}
	text := fmt.Sprintf("%3.0f%% %d/%d files %s %.1fs", 100*frac, pr.FilesDone, pr.FilesTotal,
		humanBytes(pr.BytesDone), pr.Elapsed.Seconds())
	if pr.Phase == "embed" {
		frac = 0
		if pr.FilesTotal > 0 {
			frac = float64(pr.FilesDone) / float64(pr.FilesTotal)
		}
		text = fmt.Sprintf("embedding %3.0f%% %d/%d files %.1fs", 100*frac, pr.FilesDone, pr.FilesTotal, pr.Elapsed.Seconds())
	}
	if final {
		text = fmt.Sprintf("publishing %d files %.1fs", pr.FilesTotal, pr.Elapsed.Seconds())
	}
	if !p.tty {
		fmt.Fprintln(p.w, text)
		return
	}
	barWidth := p.width - len(text) - 4
	if barWidth > 40 {
		barWidth = 40
	}
	bar := ""
	if barWidth > 5 {
		n := int(frac * float64(barWidth))
		bar = "[" + strings.Repeat("=", n) + strings.Repeat(" ", barWidth-n) + "] "
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s%s", bar, text)
	p.drawn = true
}

// done clears the bar.
func (p *progressPrinter) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
