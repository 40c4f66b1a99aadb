package tensor

import "syscall"

// mapPopulate has anonymous mappings populated when made.
const mapPopulate = syscall.MAP_POPULATE
