package tasks

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// record is one line of a RepoEval task file.
type record struct {
	Prompt   string   `json:"prompt"`
	Metadata metadata `json:"metadata"`
}

type metadata struct {
	TaskID             string   `json:"task_id"`
	FpathTuple         []string `json:"fpath_tuple"`
	LineNo             int      `json:"line_no"`
	ContextStartLineno int      `json:"context_start_lineno"`
	GroundTruth        string   `json:"ground_truth"`
}

// Write writes tasks as RepoEval JSONL, one object per line.
func Write(w io.Writer, tasks []Task) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, t := range tasks {
		fp := append([]string{t.Repo}, strings.Split(t.Path, "/")...)
		r := record{Prompt: t.Prompt, Metadata: metadata{
			TaskID: t.ID, FpathTuple: fp, LineNo: t.Line, GroundTruth: t.GroundTruth,
		}}
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write task %s: %w", t.ID, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write tasks: %w", err)
	}
	return nil
}

// Read reads RepoEval JSONL. Unknown fields are ignored, so the public
// task files of RepoCoder and GraphCoder load as they are. The first
// element of fpath_tuple is the repository, the rest the file's path.
func Read(r io.Reader) ([]Task, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	var out []Task
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("task line %d: %w", n, err)
		}
		m := rec.Metadata
		if len(m.FpathTuple) < 2 {
			return nil, fmt.Errorf("task line %d: fpath_tuple needs a repository and a file, got %q", n, m.FpathTuple)
		}
		if m.LineNo < 0 || m.ContextStartLineno < 0 {
			return nil, fmt.Errorf("task line %d: negative line number", n)
		}
		id := m.TaskID
		if id == "" {
			id = fmt.Sprintf("%s/%d", m.FpathTuple[0], len(out))
		}
		out = append(out, Task{
			ID:          id,
			Repo:        m.FpathTuple[0],
			Path:        strings.Join(m.FpathTuple[1:], "/"),
			Line:        m.LineNo,
			Prompt:      rec.Prompt,
			GroundTruth: m.GroundTruth,
		})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read tasks: %w", err)
	}
	if len(out) == 0 {
		return nil, errors.New("read tasks: no tasks")
	}
	return out, nil
}
