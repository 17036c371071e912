package eval

import (
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WriteChart draws the rates of every method as grouped bars, one group
// per metric, as SVG.
func (r *Report) WriteChart(w io.Writer) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, %s level, %d tasks", r.Language, r.Level, len(r.Tasks))
	p.Y.Label.Text = "percent"
	p.Y.Min, p.Y.Max = 0, 100
	names := []string{"EM", "ES", "ID-EM", "ID-F1", "hit@1", "hit@5", "hit@10"}
	width := vg.Points(60 / float64(max(len(r.Methods), 1)))
	for i, m := range r.Methods {
		vals := plotter.Values{m.EM, m.ES, m.IDEM, m.IDF1, m.Hit1, m.Hit5, m.Hit10}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(i)
		bars.Offset = width * vg.Length(float64(i)-float64(len(r.Methods)-1)/2)
		p.Add(bars)
		p.Legend.Add(m.Name, bars)
	}
	p.Legend.Top = true
	p.NominalX(names...)
	wt, err := p.WriterTo(10*vg.Inch, 5*vg.Inch, "svg")
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	if _, err := wt.WriteTo(w); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	return nil
}
