// Package instance keeps one running Tensorscope per user and display: a
// second launch with files hands them to the running instance on the same
// display, which opens them as new tabs, and exits. A launch on another
// display ($WAYLAND_DISPLAY, else $DISPLAY: see DisplayKey) starts an
// instance of its own there.
//
// The running instance (the primary) holds an exclusive flock on
// <dir>/<name>.sock.lock for its whole life and listens on the Unix-domain
// socket <dir>/<name>.sock, where name is <app id>@<display> (or the app id
// alone with no display) and dir is $XDG_RUNTIME_DIR or, when that is
// unset or unsafe, a 0700 directory <tmp>/<app id>-<uid>. The lock, not the
// socket, decides who is primary: the kernel drops it when a process dies,
// so a socket left behind by a crash is recognised as stale (the lock is
// free, connecting is refused) and replaced, and of two instances started at
// once exactly one wins.
//
// The socket is reachable only by its user: the directory must be owned by
// the user with no group or other permissions, the socket is 0600, and on
// Linux the listener also checks the peer's uid (SO_PEERCRED). A request is
// nothing but a list of absolute, clean paths of existing regular files, at
// most MaxMessage bytes, read under a deadline; anything else is rejected,
// logged, and never acted on.
//
// On Windows (and other systems without flock and Unix sockets in the
// standard library) Listen and Send return errors wrapping ErrUnsupported,
// and the caller opens a new window instead; macOS and the BSDs work as on
// Linux except that the peer's uid is not checked, so there the directory's
// permissions alone keep other users out.
//
// Imports: the standard library only.
package instance
