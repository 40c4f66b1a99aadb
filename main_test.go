package main

import (
	"os"
	"strings"
	"testing"

	"tensorscope/cli"
)

func TestVersionMatchesFyneAppToml(t *testing.T) {
	b, err := os.ReadFile("FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `Version = "`+cli.Version+`"`) {
		t.Errorf("FyneApp.toml does not carry version %s", cli.Version)
	}
	if !strings.Contains(string(b), `ID = "`+AppID+`"`) {
		t.Errorf("FyneApp.toml does not carry app id %s", AppID)
	}
}
