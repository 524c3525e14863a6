package htmlreport

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/groupcheck/groupcheck/oracle"
	"github.com/groupcheck/groupcheck/oracle/history"
)

// browserEnv switches the browser test on: it needs Debian's chromium (apt-get install -y
// chromium); .ci/run installs it and sets the variable.
const browserEnv = "GROUPCHECK_BROWSER"

// chromium finds the browser, or skips the test when it is not asked for.
func chromium(t *testing.T) string {
	t.Helper()
	if os.Getenv(browserEnv) == "" {
		t.Skipf("set %s=1 to load the pages in headless Chromium", browserEnv)
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatalf("%s is set but no chromium is installed (apt-get install -y chromium)", browserEnv)
	return ""
}

// headless runs the browser on a page from disk, nothing fetched, and returns what it printed
// on stdout (the DOM after the script ran, with --dump-dom) and its log on stderr.
func headless(t *testing.T, bin string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, errb.String())
	}
	return out.String(), errb.String()
}

var rootAttr = regexp.MustCompile(`<html[^>]*>`)

// attr is an attribute of the dumped DOM's root element.
func attr(dom, name string) string {
	root := rootAttr.FindString(dom)
	m := regexp.MustCompile(name + `="([^"]*)"`).FindStringSubmatch(root)
	if m == nil {
		return ""
	}
	return m[1]
}

// consoleErrors are the lines of the browser's log that report a script error on the page.
func consoleErrors(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "CONSOLE") && (strings.Contains(l, "Error") || strings.Contains(l, "Uncaught")) {
			out = append(out, l)
		}
	}
	return out
}

// TestBrowser loads a counterexample's page and a history's page from disk in headless
// Chromium, as a person would open them: the script must run without an error and find
// every lane and band drawn (it writes what it found on the root element, read back from
// --dump-dom); a URL naming a step (#tl1-s12) must open that step's detail; and the
// screenshot must show a drawing, not a blank page.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	tr, res := loadTrace(t, "../traces/golden/eager-keeps-owned-list-exclusive-ownership.trace")
	trace := filepath.Join(dir, "trace.html")
	writeFile(t, trace, func(b *bytes.Buffer) error { return WriteTrace(b, tr, res) })
	h := lateCommit(t)
	hist := filepath.Join(dir, "history.html")
	writeFile(t, hist, func(b *bytes.Buffer) error {
		return Write(b, HistoryPage("late-commit", h, oracle.Check(h, oracle.Options{}), ""))
	})
	for _, tc := range []struct {
		file         string
		lanes, bands int
	}{
		{trace, 1 + len(tr.Config.Members), 2}, // coord, a, b; t-0, t-1
		{hist, 3, 6},                           // coord, broken, peer; t1-0..3, t2-0..1
	} {
		dom, log := headless(t, bin, "--dump-dom", "file://"+tc.file+"#tl1-s12")
		if st := attr(dom, "data-status"); st != "ok" {
			t.Errorf("%s: data-status %q, want ok (the script did not finish)", tc.file, st)
		}
		if errs := consoleErrors(log); len(errs) > 0 {
			t.Errorf("%s: script errors:\n%s", tc.file, strings.Join(errs, "\n"))
		}
		if got, want := attr(dom, "data-lanes"), fmt.Sprint(tc.lanes); got != want {
			t.Errorf("%s: the script found %s lanes, want %s", tc.file, got, want)
		}
		if got, want := attr(dom, "data-bands"), fmt.Sprint(tc.bands); got != want {
			t.Errorf("%s: the script found %s bands, want %s", tc.file, got, want)
		}
		if tc.file == trace && (!strings.Contains(dom, `<section class="stepdetail" data-step="12"><h3>`) || !strings.Contains(dom, `class="col sel" data-step="12"`)) {
			t.Errorf("%s#tl1-s12 did not open step 12", tc.file)
		}
	}
	shot := filepath.Join(dir, "trace.png")
	headless(t, bin, "--window-size=1400,1100", "--hide-scrollbars", "--screenshot="+shot, "file://"+trace)
	if n := colours(t, shot); n < 8 {
		t.Errorf("the screenshot has %d colours: nothing drawn", n)
	}
	if out := os.Getenv("GROUPCHECK_SCREENSHOT"); out != "" {
		if b, err := os.ReadFile(shot); err == nil {
			os.WriteFile(out, b, 0o644)
		}
	}
}

// lateCommit is the history of a client that commits a partition after giving it up, which
// commit-from-owner catches.
func lateCommit(t *testing.T) history.History {
	t.Helper()
	h, err := history.ReadFile("testdata/late-commit-cooperative.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func writeFile(t *testing.T, path string, write func(*bytes.Buffer) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// colours counts the distinct colours of a PNG, up to 64.
func colours(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y && len(seen) < 64; y += 3 {
		for x := b.Min.X; x < b.Max.X && len(seen) < 64; x += 3 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

// layoutProbe is appended to a page under test: it opens every step's detail at once and
// writes on the root element where the first timeline's heading ends against the window's
// height, and which elements of a step's detail are wider than their box (scrollWidth past
// clientWidth: the reader would scroll sideways to read them).
const layoutProbe = `<script>//<![CDATA[
(function () {
  var root = document.documentElement;
  var details = document.querySelectorAll(".stepdetail");
  for (var i = 0; i < details.length; i++) { details[i].removeAttribute("hidden"); }
  var wide = [];
  var els = document.querySelectorAll(".stepdetail, .stepdetail *");
  for (var j = 0; j < els.length; j++) {
    var e = els[j];
    if (e.scrollWidth > e.clientWidth + 1 && !(e instanceof SVGElement)) {
      var d = e.closest(".stepdetail");
      wide.push(d.closest(".timeline").id + " step " + d.getAttribute("data-step") + " " + e.tagName.toLowerCase() + "." + e.className + " " + e.scrollWidth + " px in " + e.clientWidth);
    }
  }
  root.setAttribute("data-probe-wide", String(wide.length));
  root.setAttribute("data-probe-wide-first", wide.slice(0, 3).join("; "));
  var h = document.querySelector("section.timeline h2");
  root.setAttribute("data-probe-heading", h ? String(Math.ceil(h.getBoundingClientRect().bottom)) : "none");
  root.setAttribute("data-probe-window", window.innerWidth + "x" + window.innerHeight);
})();
//]]></script>`

// TestBrowserLayout opens a run's page (shaped as explore's of the default world), a trace's
// and a history's in headless Chromium at 1400x900, as a reader's screen: the first
// counterexample's heading must end within the window's inner height (757 px of the 900 in
// Debian's Chromium 156, headless: the first screen), and no step's detail may be wider than
// the page (every detail opened at once, each measured).
func TestBrowserLayout(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	tr, res := loadTrace(t, "../traces/golden/eager-keeps-owned-list-exclusive-ownership.trace")
	h := lateCommit(t)
	for _, tc := range []struct {
		name string
		page *Page
	}{
		{"run", runPage(t)},
		{"trace", TracePage(tr, res)},
		{"history", HistoryPage("late-commit", h, oracle.Check(h, oracle.Options{}), "")},
	} {
		file := filepath.Join(dir, tc.name+".html")
		writeFile(t, file, func(b *bytes.Buffer) error {
			if err := Write(b, tc.page); err != nil {
				return err
			}
			probed := strings.Replace(b.String(), "</body>", layoutProbe+"\n</body>", 1)
			b.Reset()
			b.WriteString(probed)
			return nil
		})
		dom, log := headless(t, bin, "--window-size=1400,900", "--dump-dom", "file://"+file)
		if errs := consoleErrors(log); len(errs) > 0 {
			t.Errorf("%s: script errors:\n%s", tc.name, strings.Join(errs, "\n"))
		}
		var w, ht int
		if _, err := fmt.Sscanf(attr(dom, "data-probe-window"), "%dx%d", &w, &ht); err != nil || w < 1300 {
			t.Fatalf("%s: the probe did not run, or the window is %q, not 1400 wide", tc.name, attr(dom, "data-probe-window"))
		}
		bottom, err := strconv.Atoi(attr(dom, "data-probe-heading"))
		if err != nil {
			t.Errorf("%s: no timeline heading found (%q)", tc.name, attr(dom, "data-probe-heading"))
		} else if bottom > ht {
			t.Errorf("%s: the first counterexample's heading ends %d px down, below the first screen (%d px)", tc.name, bottom, ht)
		}
		if n := attr(dom, "data-probe-wide"); n != "0" {
			t.Errorf("%s: %s elements of the step details are wider than the page at 1400 px: %s", tc.name, n, attr(dom, "data-probe-wide-first"))
		}
		t.Logf("%s: window %dx%d, first heading ends at %d px", tc.name, w, ht, bottom)
	}
}
