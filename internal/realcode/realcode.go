// Package realcode locates the real code bases that tests and benchmarks
// read: the Python standard library of the machine's python3 and the JDK
// sources (Debian's openjdk-17-source). Tests skip when they are absent, so
// the suite passes anywhere and measures real code where it can.
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
