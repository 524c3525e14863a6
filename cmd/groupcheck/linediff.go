package main

import "strings"

// lineDiff is a line diff of want against got: lines only in want marked "- ", lines only in
// got "+ ", and the common lines around a change "  ", at most two each side; "" when equal.
// It is a longest-common-subsequence diff, as diff(1) prints one, for renderings of a few
// hundred lines.
func lineDiff(want, got string) string {
	a, b := splitLines(want), splitLines(got)
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var ls []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ls = append(ls, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			ls = append(ls, line{'-', a[i]})
			i++
		default:
			ls = append(ls, line{'+', b[j]})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	last := -1 // the last line written
	for k, l := range ls {
		if l.mark == ' ' {
			continue
		}
		from := max(k-context, last+1)
		if last >= 0 && from > last+1 {
			out.WriteString("  …\n")
		}
		for c := from; c < k; c++ {
			out.WriteString("  " + ls[c].text + "\n")
		}
		out.WriteString(string(l.mark) + " " + l.text + "\n")
		last = k
		for c := k + 1; c < len(ls) && c <= k+context && ls[c].mark == ' '; c++ {
			out.WriteString("  " + ls[c].text + "\n")
			last = c
		}
	}
	return out.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
