package ccg

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Subset restricts a dump to a slice of the graph without this package
// depending on package slice: the target vertex, the vertex ids and the
// hop of each (Hops[i] belongs to Nodes[i]). Edges shown are those induced
// on Nodes, minus the CD and DD edges into Target, which a slice ignores.
type Subset struct {
	Target int32
	Nodes  []int32
	Hops   []uint8
}

// Write dumps g (or the part of it sub selects, when sub is not nil) to w
// in format "text" (stable, line oriented, for golden files), "json" or
// "dot" (Graphviz).
func Write(w io.Writer, g *Graph, format string, sub *Subset) error {
	nodes, hops := allNodes(g, sub)
	edges := subsetEdges(g, sub, nodes)
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "text":
		writeText(bw, g, sub, nodes, hops, edges)
	case "json":
		err = writeJSON(bw, g, sub, nodes, hops, edges)
	case "dot":
		writeDot(bw, g, sub, nodes, hops, edges)
	default:
		return fmt.Errorf("unknown format %q (want text, json or dot)", format)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", format, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", format, err)
	}
	return nil
}

func allNodes(g *Graph, sub *Subset) ([]int32, map[int32]uint8) {
	if sub != nil {
		hops := make(map[int32]uint8, len(sub.Nodes))
		for i, v := range sub.Nodes {
			if i < len(sub.Hops) {
				hops[v] = sub.Hops[i]
			}
		}
		return sub.Nodes, hops
	}
	nodes := make([]int32, len(g.Nodes))
	for i := range nodes {
		nodes[i] = int32(i)
	}
	return nodes, nil
}

func subsetEdges(g *Graph, sub *Subset, nodes []int32) []Edge {
	if sub == nil {
		return g.Edges
	}
	in := make(map[int32]bool, len(nodes))
	for _, v := range nodes {
		in[v] = true
	}
	var out []Edge
	for _, e := range g.Edges {
		if in[e.From] && in[e.To] && (e.Type == CF || e.To != sub.Target) {
			out = append(out, e)
		}
	}
	return out
}

// firstLine is a vertex's text shortened to one line for dumps.
func firstLine(g *Graph, v int32) string {
	t := g.Text(v)
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = strings.TrimRight(t[:i], " \t") + " ..."
	}
	return strings.TrimSpace(t)
}

func writeText(w *bufio.Writer, g *Graph, sub *Subset, nodes []int32, hops map[int32]uint8, edges []Edge) {
	fmt.Fprintf(w, "# %s (%s): %d nodes, %d edges\n", g.Path, g.Language, len(nodes), len(edges))
	if sub != nil {
		fmt.Fprintf(w, "# target %d\n", sub.Target)
	}
	for _, v := range nodes {
		n := &g.Nodes[v]
		scope := "-"
		if n.Scope != NoScope {
			scope = strconv.Itoa(int(n.Scope))
		}
		fmt.Fprintf(w, "%d %s %d-%d scope=%s", v, n.Kind, n.StartRow+1, n.EndRow+1, scope)
		if hops != nil {
			fmt.Fprintf(w, " hop=%d", hops[v])
		}
		if n.Dummy {
			w.WriteString(" dummy")
		}
		if len(g.Defs(v)) > 0 {
			fmt.Fprintf(w, " defs=%s", strings.Join(g.Defs(v), ","))
		}
		if len(g.Params(v)) > 0 {
			fmt.Fprintf(w, " params=%s", strings.Join(g.Params(v), ","))
		}
		if len(g.Uses(v)) > 0 {
			fmt.Fprintf(w, " uses=%s", strings.Join(g.Uses(v), ","))
		}
		fmt.Fprintf(w, " | %s\n", firstLine(g, v))
	}
	for _, e := range edges {
		fmt.Fprintf(w, "%d -%s-> %d", e.From, e.Type, e.To)
		if v := g.Var(e); v != "" {
			fmt.Fprintf(w, " %s", v)
		}
		w.WriteByte('\n')
	}
}

type jsonNode struct {
	ID        int32    `json:"id"`
	Kind      string   `json:"kind"`
	StartLine int      `json:"start_line"`
	EndLine   int      `json:"end_line"`
	Text      string   `json:"text"`
	Defs      []string `json:"defs"`
	Uses      []string `json:"uses"`
	Params    []string `json:"params,omitempty"`
	Hop       *uint8   `json:"hop,omitempty"`
}

type jsonEdge struct {
	From int32  `json:"from"`
	To   int32  `json:"to"`
	Type string `json:"type"`
	Var  string `json:"var,omitempty"`
}

type jsonGraph struct {
	Path     string     `json:"path"`
	Language string     `json:"language"`
	Target   *int32     `json:"target,omitempty"`
	Nodes    []jsonNode `json:"nodes"`
	Edges    []jsonEdge `json:"edges"`
}

func writeJSON(w io.Writer, g *Graph, sub *Subset, nodes []int32, hops map[int32]uint8, edges []Edge) error {
	out := jsonGraph{Path: g.Path, Language: g.Language, Nodes: make([]jsonNode, 0, len(nodes)), Edges: make([]jsonEdge, 0, len(edges))}
	if sub != nil {
		t := sub.Target
		out.Target = &t
	}
	for _, v := range nodes {
		n := &g.Nodes[v]
		jn := jsonNode{ID: v, Kind: n.Kind.String(), StartLine: n.StartRow + 1, EndLine: n.EndRow + 1,
			Text: g.Text(v), Defs: g.Defs(v), Uses: g.Uses(v), Params: g.Params(v)}
		if n.Dummy {
			jn.Kind = "target"
		}
		if jn.Defs == nil {
			jn.Defs = []string{}
		}
		if jn.Uses == nil {
			jn.Uses = []string{}
		}
		if hops != nil {
			h := hops[v]
			jn.Hop = &h
		}
		out.Nodes = append(out.Nodes, jn)
	}
	for _, e := range edges {
		out.Edges = append(out.Edges, jsonEdge{From: e.From, To: e.To, Type: e.Type.String(), Var: g.Var(e)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// dotStyle draws control flow solid black, control dependence dashed blue
// and data dependence dotted red (labelled with the variable).
var dotStyle = [...]string{
	CF: `color=black`,
	CD: `color=blue, style=dashed`,
	DD: `color=red, style=dotted, fontcolor=red`,
}

func writeDot(w *bufio.Writer, g *Graph, sub *Subset, nodes []int32, hops map[int32]uint8, edges []Edge) {
	w.WriteString("digraph ccg {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontsize=9];\n")
	for _, v := range nodes {
		n := &g.Nodes[v]
		label := fmt.Sprintf("%d: %s", n.StartRow+1, firstLine(g, v))
		if n.Dummy {
			label = fmt.Sprintf("%d: <target>", n.StartRow+1)
		}
		if hops != nil {
			label += fmt.Sprintf(" [hop %d]", hops[v])
		}
		attr := ""
		if sub != nil && v == sub.Target || n.Dummy {
			attr = ", style=filled, fillcolor=lightyellow"
		}
		fmt.Fprintf(w, "  n%d [label=%s%s];\n", v, strconv.Quote(label), attr)
	}
	for _, e := range edges {
		fmt.Fprintf(w, "  n%d -> n%d [%s", e.From, e.To, dotStyle[e.Type])
		if v := g.Var(e); v != "" {
			fmt.Fprintf(w, ", label=%s", strconv.Quote(v))
		}
		w.WriteString("];\n")
	}
	w.WriteString("}\n")
}
