package cli

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestHeapOnHugePages runs heapOnHugePages in a fresh process, as a
// reading command does, and checks that the memory the process then
// allocates lies in a mapping marked for huge pages ("hg" in its VmFlags).
func TestHeapOnHugePages(t *testing.T) {
	if os.Getenv("TENSORSCOPE_HUGEPAGES_CHILD") == "1" {
		hugePagesChild()
		return
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	for _, godebug := range []string{"", "disablethp=1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHeapOnHugePages$")
		cmd.Env = append(os.Environ(), "TENSORSCOPE_HUGEPAGES_CHILD=1", "GODEBUG="+godebug)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		flags, faults, ok := strings.Cut(strings.TrimSpace(string(out)), ";")
		if !ok {
			t.Fatalf("child said %q", out)
		}
		marked := strings.Contains(" "+flags+" ", " hg ")
		t.Logf("GODEBUG=%q: VmFlags %s; touching 16 MiB faulted %s times", godebug, flags, faults)
		if want := godebug == ""; marked != want {
			t.Errorf("GODEBUG=%q: the heap's mapping is marked for huge pages: %v, want %v (VmFlags %s)", godebug, marked, want, flags)
		}
	}
}

// hugePagesChild prints the VmFlags of the mapping holding a fresh 16 MiB
// allocation, and how many page faults touching it took.
func hugePagesChild() {
	heapOnHugePages()
	b := make([]byte, 16<<20)
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	flags, err := vmFlagsAt(uintptr(unsafe.Pointer(&b[len(b)/2])))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	fmt.Printf("%s;%d\n", flags, after.Minflt-before.Minflt)
	os.Exit(0) // not the test framework's PASS line
}

// vmFlagsAt reads /proc/self/smaps for the VmFlags of the mapping holding
// address a.
func vmFlagsAt(a uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	inside := false
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		line := lines.Text()
		if span, _, ok := strings.Cut(line, " "); ok && strings.Contains(span, "-") && !strings.HasSuffix(span, ":") {
			lo, hi, _ := strings.Cut(span, "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			inside = err1 == nil && err2 == nil && uint64(a) >= l && uint64(a) < h
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && inside {
			return strings.TrimSpace(flags), nil
		}
	}
	if err := lines.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("no mapping in /proc/self/smaps holds %#x", a)
}
