#!/bin/sh
# Installs the prebuilt cat-code for this machine:
#   curl -fsSL https://github.com/cat-code/cat-code/releases/latest/download/install.sh | sh
#
# CAT_CODE_INSTALL_BASE_URL  where the archives and SHA256SUMS are (a mirror, or one release:
#                            .../releases/download/v0.1.0); default: the latest GitHub release
# CAT_CODE_INSTALL_DIR       where the binary goes; default: ~/.cat-code/bin
# CAT_CODE_INSTALL_TARGET    skip detection: linux-x64, linux-arm64, linux-x64-musl, darwin-x64, darwin-arm64
#
# Nothing is installed unless the archive's SHA-256 matches the release's SHA256SUMS.
set -eu

base_url="${CAT_CODE_INSTALL_BASE_URL:-https://github.com/cat-code/cat-code/releases/latest/download}"
base_url="${base_url%/}"
install_dir="${CAT_CODE_INSTALL_DIR:-${HOME:?HOME is not set; set CAT_CODE_INSTALL_DIR}/.cat-code/bin}"

say() { printf '%s\n' "$*"; }
fail() { printf 'cat-code install: %s\n' "$*" >&2; exit 1; }

detect_target() {
  os=$(uname -s)
  arch=$(uname -m)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN*) fail "on Windows, download cat-code-<version>-windows-x64.zip from $base_url and unzip it" ;;
    *) fail "no prebuilt cat-code for $os; build it from source (npm run build)" ;;
  esac
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) fail "no prebuilt cat-code for $os on $arch; build it from source (npm run build)" ;;
  esac
  # A shell translated by Rosetta 2 reports x86_64 on Apple silicon: the native build is faster.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  if [ "$os" = linux ] && is_musl; then
    [ "$arch" = x64 ] || fail "no prebuilt cat-code for musl Linux on $arch (Alpine and the like); build it from source"
    arch=x64-musl
  fi
  say "$os-$arch"
}

# Alpine and other musl systems cannot run the glibc build. A glibc system may have a musl loader
# installed beside its own, so the loader's presence alone decides only when there is no ldd to ask.
is_musl() {
  if command -v ldd >/dev/null 2>&1; then
    ldd --version 2>&1 | grep -qi musl
    return
  fi
  for glibc_loader in /lib64/ld-linux-* /lib/ld-linux-*; do
    [ -e "$glibc_loader" ] && return 1
  done
  for musl_loader in /lib/ld-musl-*; do
    [ -e "$musl_loader" ] && return 0
  done
  return 1
}

download() { # url file
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" || fail "could not download $1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" || fail "could not download $1"
  else
    fail "neither curl nor wget is installed; install one of them and run this again"
  fi
}

sha256_of() { # file
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    fail "neither sha256sum nor shasum is installed, so the download cannot be checked; install one of them and run this again"
  fi
}

target="${CAT_CODE_INSTALL_TARGET:-}"
[ -n "$target" ] || target=$(detect_target) || exit 1
tmp=$(mktemp -d 2>/dev/null || mktemp -d -t cat-code)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

download "$base_url/SHA256SUMS" "$tmp/SHA256SUMS"
# The archive's name carries the version, which only the release knows: SHA256SUMS lists it.
archive=$(awk -v suffix="-$target.tar.gz" '
  { name = $2; sub(/^\*/, "", name) }
  name ~ /^cat-code-/ && substr(name, length(name) - length(suffix) + 1) == suffix { print name; exit }
' "$tmp/SHA256SUMS")
[ -n "$archive" ] || fail "the release at $base_url has no archive for $target"
expected=$(awk -v name="$archive" '{ n = $2; sub(/^\*/, "", n) } n == name { print $1; exit }' "$tmp/SHA256SUMS")

say "Downloading $archive"
download "$base_url/$archive" "$tmp/$archive"
actual=$(sha256_of "$tmp/$archive")
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $archive: SHA256SUMS says $expected, the download is $actual; refusing to install (nothing was changed)"
fi

mkdir -p "$tmp/unpacked"
tar -xzf "$tmp/$archive" -C "$tmp/unpacked" || fail "could not unpack $archive"
[ -f "$tmp/unpacked/cat-code" ] || fail "$archive holds no cat-code binary"
mkdir -p "$install_dir" || fail "could not create $install_dir"
# Copy beside the target, then rename: a running cat-code is never half-overwritten.
cp "$tmp/unpacked/cat-code" "$install_dir/.cat-code.new"
chmod 755 "$install_dir/.cat-code.new"
mv -f "$install_dir/.cat-code.new" "$install_dir/cat-code"

if version=$("$install_dir/cat-code" --version 2>/dev/null); then
  say "Installed $version to $install_dir/cat-code"
else
  say "Installed $install_dir/cat-code, but it does not start here."
  case "$target" in
    *-musl) say "The musl build needs the C++ runtime: on Alpine, apk add libstdc++ libgcc" ;;
  esac
fi
case ":${PATH:-}:" in
  *":$install_dir:"*) say "Run: cat-code" ;;
  *)
    case "${SHELL:-}" in
      */zsh) profile=.zshrc ;;
      */bash) profile=.bashrc ;;
      */fish) profile="" ;;
      *) profile=.profile ;;
    esac
    say "$install_dir is not on your PATH. To put it there:"
    if [ -z "$profile" ]; then
      say "  fish_add_path \"$install_dir\""
    else
      say "  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/$profile"
      say "then open a new terminal, or run: export PATH=\"$install_dir:\$PATH\""
    fi
    ;;
esac
