package invariants

// sccs computes the strongly connected components of the subgraph of g induced by the worlds
// in and the edges use admits, by Tarjan's algorithm without recursion (the graphs reach
// millions of worlds). It returns each world's component id (-1 outside the subgraph) and
// the number of components; ids come in reverse topological order — a component's edges lead
// only to components with smaller ids — which is the order longest-path sums need.
func (g *liveGraph) sccs(in func(int) bool, use func(edge) bool) (comp []int32, members [][]int32) {
	size := g.size()
	comp = make([]int32, size)
	index := make([]int32, size) // 0 = unvisited, else DFS number + 1
	low := make([]int32, size)
	onStack := make([]bool, size)
	var stack []int32
	type frame struct {
		v    int32
		next int // the next out-edge of v to look at
	}
	var calls []frame
	counter := int32(0)
	for i := range comp {
		comp[i] = -1
	}
	for root := 0; root < size; root++ {
		if index[root] != 0 || !in(root) {
			continue
		}
		calls = append(calls, frame{v: int32(root)})
		counter++
		index[root], low[root] = counter, counter
		stack = append(stack, int32(root))
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if f.next < len(g.from(v)) {
				e := g.from(v)[f.next]
				f.next++
				w := e.to
				if !in(int(w)) || !use(e) {
					continue
				}
				if index[w] == 0 {
					counter++
					index[w], low[w] = counter, counter
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{v: w})
				} else if onStack[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				if p := calls[len(calls)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(len(members))
					if w == v {
						break
					}
				}
				members = append(members, nil)
			}
		}
	}
	for i, c := range comp {
		if c >= 0 {
			members[c] = append(members[c], int32(i))
		}
	}
	return comp, members
}
