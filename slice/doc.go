// Package slice cuts the context of one statement out of a code context
// graph: Algorithm 1 of the GraphCoder paper.
//
// Starting from the statement to predict, a breadth-first search walks
// control flow edges backwards for at most h hops, and every vertex it
// visits brings along its control and data dependence predecessors;
// collection stops once l statements are gathered. The result is the
// subgraph induced on those statements. Its text in source order is the
// "context sequence slice" that coarse retrieval compares, and its vertices'
// hop distances from the target weight the fine, graph-based comparison.
//
// Why a slice rather than a window of lines? The lines that matter for the
// next statement are the ones it follows and depends on, which may sit far
// above it, while the lines right above may be unrelated. A slice keeps
// the former and drops the latter, in a bounded size.
//
// The target stands for a statement that has not been written yet, so its
// own dependence in-edges are ignored (see Slicer.Of). The slicer runs for
// every statement of every indexed file, so Slicer reuses its buffers and
// a call costs a handful of allocations for the result.
package slice
