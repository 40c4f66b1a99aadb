package ui

// sortedTitle is a table column's header: its title, with ▼ (descending)
// or ▲ when the table is sorted by it. sortArrowWidest is the widest
// header text, for sizing a column.
func sortedTitle(title string, sorted, desc bool) string {
	switch {
	case !sorted:
		return title
	case desc:
		return title + " ▼"
	}
	return title + " ▲"
}

func sortArrowWidest(title string) string { return title + " ▼" }
