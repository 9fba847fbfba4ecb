#!/usr/bin/env bash
# Installs the Debian 12 packages Hoist builds and tests with, if any is missing.
set -euo pipefail

packages=(
  cmake ninja-build g++ gcc binutils python3
  make                   # brighten-make-program recompiles Debian's own make
  llvm-19-dev llvm-19-tools libzydis-dev
  libgtest-dev libgmock-dev
  gcc-mingw-w64-x86-64
  mingw-w64-x86-64-dev   # lib/Prototypes: the Windows table from its headers and import libraries
  clang-19 lld-19 libclang-rt-19-dev
  csmith libcsmith-dev bc
  libz3-dev
  graphviz           # tests/lit/cfg/dot.test renders `hoist cfg --dot` with dot -Tsvg; `hoist report` draws its graphs with it
  chromium fonts-dejavu-core   # tests/lit/report: the report's pages load, select and are screenshot in headless Chromium
  python3-clang-19 libclang1-19 libclang-19-dev   # lib/Prototypes: the table from the headers
  zlib1g-dev libbz2-dev liblzma-dev libsqlite3-dev libacl1-dev libpcre2-dev
  libselinux1-dev    # these libraries' headers join the prototype table too
  libgcrypt20-dev libgpg-error-dev libssl-dev libgmp-dev libglib2.0-dev libdbus-1-dev
  libext2fs-dev libmnl-dev libsystemd-dev libassuan-dev libksba-dev libmount-dev
  libblkid-dev libsmartcols-dev libmpfr-dev libcurl4-openssl-dev libelf-dev libdw-dev
  libncurses-dev
                     # and these, the C libraries /usr/bin calls most after libc
  libgnutls28-dev libidn2-dev libpsl-dev uuid-dev libmagic-dev liblz4-dev libzstd-dev
                     # and those of wget, zstd, lz4 and file
  libjsoncpp-dev     # and the C++ library it calls most after libstdc++
  libmimalloc-dev    # the executables' allocator (cmake/Allocator.cmake)
  bzip2 xz-utils jq  # tests/brighten/upstream-preload.sh: the programs run on their brightened libraries
  pybind11-dev python3-dev python3-pytest   # python/: the bindings and their tests
  python3-distributed   # scripts/corpus-dask.py: corpus runs on a Dask cluster
  python3-jsonschema    # tests/lit/cli/json-schemas.test: every JSON output against docs/schema
  help2man              # the man page, made from --help at build time (tools/hoist/CMakeLists.txt)
  libc6-dev musl-dev musl-tools   # lib/Signatures: the static C libraries signatures are made from; musl-gcc builds the test programs
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "hoist: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
