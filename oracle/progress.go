package oracle

import "io"

// progressEvery is how many bytes a progress report waits for.
const progressEvery = 1 << 20

// progressReader counts what r gives and tells fn about every progressEvery bytes.
func progressReader(r io.Reader, fn func(pass int, bytes int64), pass int) io.Reader {
	if fn == nil {
		return r
	}
	return &counting{r: r, fn: fn, pass: pass}
}

type counting struct {
	r         io.Reader
	fn        func(int, int64)
	pass      int
	n, toldAt int64
}

func (c *counting) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.n-c.toldAt >= progressEvery || (err == io.EOF && c.n > c.toldAt) {
		c.toldAt = c.n
		c.fn(c.pass, c.n)
	}
	return k, err
}
