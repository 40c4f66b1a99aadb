package tmfile

import "testing"

// Every enum names a field the generated table has, so a typo cannot
// silently leave a field without names.
func TestParamEnumsNameRealFields(t *testing.T) {
	prepareOps()
	for key := range paramEnums {
		found := false
		for id := range opTable {
			for _, f := range opTable[id].Fields {
				if opTable[id].Name+"."+f.Name == key {
					found = found || f.enum != nil
				}
			}
		}
		if !found {
			t.Errorf("paramEnums[%q] names no field of op-params.tsv", key)
		}
	}
}
