// Package tasks samples benchmark tasks from a repository and reads and
// writes them in the RepoEval JSONL format used by RepoCoder and GraphCoder.
//
// A task is a hole of one line in one source file: the prompt is every line
// before it and the ground truth is the line. Lines are drawn from the
// parsed statement tree rather than from raw text, which settles what is
// "code" without a second, weaker lexer:
//
//   - a candidate line is the first line of a statement vertex, so blank
//     lines, comment lines and the inside of docstrings and block comments
//     are never targets;
//   - a statement spanning several lines contributes its first line only:
//     the ground truth is that single line, the same shape as RepoEval's
//     line-level holes; continuation lines are never targets;
//   - statements made only of string literals (docstrings) and syntax-error
//     regions are skipped;
//   - the line must have at least MinTokens lexical tokens (default 5), a
//     token being a \w+ word or one punctuation character.
//
// API-level tasks also require the line to call an API the repository
// defines: some name that a function, method or class header of any file
// in the repository defines, followed by "(" on the line (or preceded by
// "new" in Java). Matching is by name, as in RepoEval-Updated: a call to
// a library method that shares its name with a repository function counts.
// Definition headers themselves are not API-level targets.
//
// Sampling is uniform over all eligible lines of all files, without
// replacement, from a PCG generator seeded by Options.Seed over candidates
// in (path, line) order, so the same seed and repository give the same
// tasks whatever order files were parsed in.
package tasks
