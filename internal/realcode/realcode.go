// Package realcode locates the real code bases that tests and benchmarks
// read: the Python standard library of the machine's python3, the JDK
// sources (Debian's openjdk-17-source), the Go standard library of the go
// command, and the npm packages `make deps` installs. Tests skip when they
// are absent, so the suite passes anywhere and measures real code where it
// can.
package realcode

import (
	"archive/zip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

var (
	stdlibOnce sync.Once
	stdlibDir  string
)

// PythonStdlib returns the standard library folder of the python3 on PATH
// (override with GRAPHCODER_PYTHON_STDLIB), or "" when there is none.
func PythonStdlib() string {
	stdlibOnce.Do(func() {
		if d := os.Getenv("GRAPHCODER_PYTHON_STDLIB"); d != "" {
			stdlibDir = d
			return
		}
		out, err := exec.Command("python3", "-c", `import sysconfig;print(sysconfig.get_paths()["stdlib"])`).Output()
		if err != nil {
			return
		}
		d := strings.TrimSpace(string(out))
		if st, err := os.Stat(filepath.Join(d, "os.py")); err == nil && !st.IsDir() {
			stdlibDir = d
		}
	})
	return stdlibDir
}

// JDKSourceZips returns the readable JDK src.zip archives, the JDK 17 one
// first (override with GRAPHCODER_JDK_SRC_ZIP). Broken links are left out.
func JDKSourceZips() []string {
	if z := os.Getenv("GRAPHCODER_JDK_SRC_ZIP"); z != "" {
		return []string{z}
	}
	var out []string
	seen := map[string]bool{}
	cands := []string{"/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip"}
	more, _ := filepath.Glob("/usr/lib/jvm/*/lib/src.zip")
	for _, c := range append(cands, more...) {
		real, err := filepath.EvalSymlinks(c)
		if err != nil || seen[real] {
			continue
		}
		if st, err := os.Stat(real); err == nil && st.Mode().IsRegular() {
			seen[real] = true
			out = append(out, c)
		}
	}
	return out
}

// OpenJDKSources opens the first JDK src.zip of JDKSourceZips that reads.
func OpenJDKSources() (*zip.ReadCloser, error) {
	err := errors.New("no JDK source archive found (Debian package openjdk-17-source)")
	for _, p := range JDKSourceZips() {
		r, openErr := zip.OpenReader(p)
		if openErr == nil {
			return r, nil
		}
		err = openErr
	}
	return nil, err
}

var (
	goSrcOnce sync.Once
	goSrcDir  string
)

// GoSrc returns the src folder of the Go installation of the go command on
// PATH (override with GRAPHCODER_GOROOT_SRC), or "" when there is none.
func GoSrc() string {
	goSrcOnce.Do(func() {
		if d := os.Getenv("GRAPHCODER_GOROOT_SRC"); d != "" {
			goSrcDir = d
			return
		}
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return
		}
		d := filepath.Join(strings.TrimSpace(string(out)), "src")
		if st, err := os.Stat(filepath.Join(d, "go", "ast")); err == nil && st.IsDir() {
			goSrcDir = d
		}
	})
	return goSrcDir
}

// NPMDir is the folder `make deps` installs the npm packages of the tests
// into (npm install --prefix): $GRAPHCODER_NPM_DIR, or graphcoder/npm in
// the user's cache folder.
func NPMDir() string {
	if d := os.Getenv("GRAPHCODER_NPM_DIR"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(cache, "graphcoder", "npm")
}

// NPMPackage returns the folder of the installed npm package name (such
// as "@tanstack/query-core"), or "" when it is not installed.
func NPMPackage(name string) string {
	dir := NPMDir()
	if dir == "" {
		return ""
	}
	d := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
	if st, err := os.Stat(filepath.Join(d, "package.json")); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return d
}

// Files returns the regular files under dir whose names end in one of
// exts, sorted, leaving out folders named in skip. A missing dir gives none.
func Files(dir string, exts []string, skip ...string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			for _, s := range skip {
				if d.Name() == s && p != dir {
					return filepath.SkipDir
				}
			}
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) && d.Type().IsRegular() {
				out = append(out, p)
				break
			}
		}
		return nil
	})
	return out
}

// Sample returns about n of files spread evenly over them, in order; all
// of them when there are no more than n.
func Sample[T any](files []T, n int) []T {
	if n <= 0 || len(files) <= n {
		return files
	}
	out := make([]T, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, files[i*len(files)/n])
	}
	return out
}
