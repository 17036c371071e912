package httpapi

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

// TabbyAPIVersion is the Tabby server release whose API graphcoder
// answers as. Tabby's clients read it from the health answer's
// version.git_describe and use features by it: tabby-agent, for one, asks
// /v1beta/server_setting (and so learns to send no usage data) only of a
// server of 0.9.0 or later.
const TabbyAPIVersion = "0.9.0"

// Version is Tabby's version object of the health answer.
type Version struct {
	BuildDate      string `json:"build_date"`
	BuildTimestamp string `json:"build_timestamp"`
	GitSHA         string `json:"git_sha"`
	GitDescribe    string `json:"git_describe"`
}

var (
	hostOnce sync.Once
	cpuInfo  string
	version  Version
)

// tabbyHealth returns the fields of Tabby's HealthState: the model, the
// device, the processor and the version.
func tabbyHealth(model string) map[string]any {
	hostOnce.Do(func() {
		cpuInfo = readCPUInfo()
		version = buildVersion()
	})
	return map[string]any{
		"model":        model,
		"chat_model":   nil,
		"device":       "cpu",
		"arch":         runtime.GOARCH,
		"cpu_info":     cpuInfo,
		"cpu_count":    runtime.NumCPU(),
		"cuda_devices": []string{},
		"version":      version,
		"webserver":    false,
	}
}

// buildVersion reads the commit the binary was built from out of its
// build information (absent in test binaries and builds outside a
// checkout).
func buildVersion() Version {
	v := Version{GitDescribe: "v" + TabbyAPIVersion + "-graphcoder", GitSHA: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.GitSHA = s.Value
		case "vcs.time":
			if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
				v.BuildDate = t.UTC().Format("2006-01-02")
				v.BuildTimestamp = t.UTC().Format(time.RFC3339)
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if v.GitSHA != "unknown" && len(v.GitSHA) >= 7 {
		v.GitDescribe += "-g" + v.GitSHA[:7]
		if dirty {
			v.GitDescribe += "-dirty"
		}
	}
	return v
}

// readCPUInfo returns the processor's model name on Linux, else the
// architecture.
func readCPUInfo() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}
