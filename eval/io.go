package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/graphcoder/graphcoder/eval/tasks"
)

// MethodSummary is one method's line of the JSON summary.
type MethodSummary struct {
	EM             float64 `json:"em"`
	ES             float64 `json:"es"`
	IDEM           float64 `json:"id_em"`
	IDF1           float64 `json:"id_f1"`
	Hit1           float64 `json:"hit@1"`
	Hit5           float64 `json:"hit@5"`
	Hit10          float64 `json:"hit@10"`
	OutHit1        float64 `json:"outside_hit@1"`
	OutHit5        float64 `json:"outside_hit@5"`
	OutHit10       float64 `json:"outside_hit@10"`
	RetrievalP50MS float64 `json:"retrieval_ms_p50"`
	RetrievalP95MS float64 `json:"retrieval_ms_p95"`
	Entries        int     `json:"db_entries"`
	Bytes          int64   `json:"db_bytes"`
	ContextSummary
}

// ContextSummary is the context quality of a method's prompts under the
// keys of spec section 10; rates are percent (mrr too, times 100) and
// prompt_tokens is a median.
type ContextSummary struct {
	Recall5       float64 `json:"recall@5"`
	Recall10      float64 `json:"recall@10"`
	MRR           float64 `json:"mrr"`
	NovelIDRecall float64 `json:"novel_id_recall"`
	APIDefRecall  float64 `json:"api_def_recall"`
	APIDefCeiling float64 `json:"api_def_ceiling"`
	DupLineShare  float64 `json:"dup_line_share"`
	PromptTokens  float64 `json:"prompt_tokens"`
	Utilization   float64 `json:"utilization"`
	NovelTasks    int     `json:"novel_id_tasks"`
	APITasks      int     `json:"api_def_tasks"`
}

func contextSummary(c ContextResult) ContextSummary {
	return ContextSummary{Recall5: round2(c.Recall5), Recall10: round2(c.Recall10), MRR: round2(c.MRR),
		NovelIDRecall: round2(c.NovelIDRecall), APIDefRecall: round2(c.APIDefRecall), APIDefCeiling: round2(c.APIDefCeiling),
		DupLineShare: round2(c.DupLineShare), PromptTokens: c.PromptTokens, Utilization: round2(c.Utilization),
		NovelTasks: c.NovelTasks, APITasks: c.APITasks}
}

// Summary is the JSON form of a report; rates are percent with two
// decimals, as the paper prints them.
type Summary struct {
	Language string                   `json:"language"`
	Level    string                   `json:"level"`
	Tasks    int                      `json:"tasks"`
	Seed     uint64                   `json:"seed"`
	Methods  map[string]MethodSummary `json:"methods"`
	// Ablation holds the context quality under each variant of the run,
	// by variant name, then method.
	Ablation map[string]map[string]VariantSummary `json:"ablation,omitempty"`
}

// VariantSummary is the context quality of a method under one variant,
// with the em and hit@10 of the retrieval its prompts were made from (a
// variant that retrieves again has its own).
type VariantSummary struct {
	ContextSummary
	EM    float64 `json:"em"`
	Hit10 float64 `json:"hit@10"`
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// Summary returns the report's JSON summary.
func (r *Report) Summary() Summary {
	s := Summary{Language: r.Language, Level: string(r.Level), Tasks: len(r.Tasks), Seed: r.Seed, Methods: map[string]MethodSummary{}}
	for _, m := range r.Methods {
		s.Methods[m.Name] = MethodSummary{
			EM: round2(m.EM), ES: round2(m.ES), IDEM: round2(m.IDEM), IDF1: round2(m.IDF1),
			Hit1: round2(m.Hit1), Hit5: round2(m.Hit5), Hit10: round2(m.Hit10),
			OutHit1: round2(m.OutHit1), OutHit5: round2(m.OutHit5), OutHit10: round2(m.OutHit10),
			RetrievalP50MS: round2(m.RetrievalP50MS), RetrievalP95MS: round2(m.RetrievalP95MS),
			Entries: m.Entries, Bytes: m.Bytes, ContextSummary: contextSummary(m.ContextResult),
		}
	}
	for _, a := range r.Ablation {
		if s.Ablation == nil {
			s.Ablation = map[string]map[string]VariantSummary{}
		}
		if s.Ablation[a.Variant] == nil {
			s.Ablation[a.Variant] = map[string]VariantSummary{}
		}
		s.Ablation[a.Variant][a.Method] = VariantSummary{contextSummary(a.ContextResult), round2(a.EM), round2(a.Hit10)}
	}
	return s
}

// WriteTable prints the report as a table like the paper's Tables 2 and 4.
func (r *Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s, %s level, %d tasks, seed %d\n\n", r.Language, r.Level, len(r.Tasks), r.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tEM\tES\tID-EM\tID-F1\thit@1\thit@5\thit@10\tout@10\tret p50 ms\tret p95 ms\tentries\tMB\t")
	for _, m := range r.Methods {
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.3f\t%.3f\t%d\t%.1f\t\n",
			m.Name, m.EM, m.ES, m.IDEM, m.IDF1, m.Hit1, m.Hit5, m.Hit10, m.OutHit10,
			m.RetrievalP50MS, m.RetrievalP95MS, m.Entries, float64(m.Bytes)/1e6)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\ncontext of the prompts (rates in percent, mrr x 100, tokens: median)\n\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tvariant\trecall@5\trecall@10\tmrr\tnovel-id\tapi-def\tdup-lines\ttokens\tutil\tEM\thit@10\t")
	row := func(name, variant string, c ContextResult) {
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.2f\t%.2f\t%.2f\t\n", name, variant,
			c.Recall5, c.Recall10, c.MRR, c.NovelIDRecall, c.APIDefRecall, c.DupLineShare, c.PromptTokens, c.Utilization,
			c.EM, c.Hit10)
	}
	for _, m := range r.Methods {
		row(m.Name, "run", m.ContextResult)
	}
	for _, a := range r.Ablation {
		row(a.Method, a.Variant, a.ContextResult)
	}
	return tw.Flush()
}

// WriteDir writes tasks.jsonl (RepoEval format), predictions.jsonl (one
// Record a line), summary.json and metrics.svg into dir.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output folder: %w", err)
	}
	write := func(name string, fn func(io.Writer) error) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("create %s: %w", name, err)
		}
		if err := fn(f); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		return nil
	}
	if err := write("tasks.jsonl", func(w io.Writer) error { return tasks.Write(w, r.Tasks) }); err != nil {
		return err
	}
	if err := write("predictions.jsonl", func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for i := range r.Records {
			if err := enc.Encode(&r.Records[i]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}
	if err := write("summary.json", func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r.Summary())
	}); err != nil {
		return err
	}
	return write("metrics.svg", r.WriteChart)
}

// readTaskFile reads RepoEval JSONL tasks from a file.
func readTaskFile(path string) ([]tasks.Task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open task file: %w", err)
	}
	defer f.Close()
	return tasks.Read(f)
}
