# The two commands the README starts with:
#   make run   — install what is missing, build, and open the viewer (FILE=... or ARGS=...)
#   make test  — install what is missing, then gofmt check, go vet, go test -race under Xvfb
# Everything else here is for developers.

SHELL := /bin/sh
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
BIN := tensorscope
VIEWER := tensorscope-viewer
FILE ?=
ARGS ?= $(FILE)

.PHONY: run test build deps deps-test deps-install fmt-check vet bench fuzz clean install uninstall

run: deps build
	LANG=$${LANG:-C.UTF-8} ./$(BIN) $(ARGS)

test: deps-test fmt-check vet
	xvfb-run -a -s "-screen 0 1600x1000x24" $(GO) test -race -timeout 20m ./...

# build makes two programs from the root package: the viewer (everything,
# Fyne included) and, with -tags lite, the tensorscope command, which runs
# the commands that only read files without Fyne's start-up cost and hands
# the window and the drawing commands to the viewer beside it (cli/handoff.go).
# The light command needs no C: linked statically it starts 3–4 ms sooner
# (no dynamic loader, no libc threads).
build:
	$(GO) build -o $(VIEWER) .
	CGO_ENABLED=0 $(GO) build -tags lite -o $(BIN) .

# install puts the binary, icon, desktop entry and MIME types in your XDG
# folders (no root) so that double-clicking a model file opens it.
install: deps-install build
	./scripts/install-desktop install ./$(BIN)

uninstall:
	./scripts/install-desktop uninstall

deps:
	@./scripts/ensure-deps run

deps-install:
	@./scripts/ensure-deps install

deps-test:
	@./scripts/ensure-deps test

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# fuzz runs every fuzz target for FUZZTIME each; FUZZ=pattern picks some,
# FUZZMINIMIZETIME bounds the minimising of finds (see scripts/fuzz).
FUZZTIME ?= 10s
FUZZ ?= .
FUZZMINIMIZETIME ?= 100x
fuzz:
	GO="$(GO)" FUZZTIME="$(FUZZTIME)" FUZZ="$(FUZZ)" FUZZMINIMIZETIME="$(FUZZMINIMIZETIME)" ./scripts/fuzz

clean:
	rm -f $(BIN) $(VIEWER)
