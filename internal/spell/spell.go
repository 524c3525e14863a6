// Package spell finds the name a misspelled one was probably meant to be, for error messages
// that name what is wrong and what would be right (a flag, a command, a config key).
package spell

import "fmt"

// Nearest is the candidate closest to s in edit distance, or "" when none is close enough to
// be a misspelling of it (more than half of s would change).
func Nearest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+1
	for _, c := range candidates {
		if d := Distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// Hint is `; did you mean "x"?` for the nearest candidate, or "" when there is none.
func Hint(s string, candidates []string) string {
	if near := Nearest(s, candidates); near != "" && near != s {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return ""
}

// Distance is the Levenshtein distance between a and b, by bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
