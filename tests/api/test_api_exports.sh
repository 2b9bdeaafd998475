#!/usr/bin/env bash
# libcuzk.so exports the public API and nothing else: every symbol it
# defines for the dynamic linker is a cuzk_ function declared CUZK_EXPORT in
# include/cuzk/*.h, every such function is exported, the library has a
# SONAME and no undefined symbols of its own making (it links with
# --no-undefined, so a build that got here has none).
# Usage: test_api_exports.sh path/to/cuzk (the build folder is its folder)
set -u
build=$(cd "$(dirname "$1")" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$build/libcuzk.so
failed=0
fail() {
    echo "FAIL: $*"
    failed=$((failed + 1))
}
if ! command -v nm >/dev/null || ! command -v readelf >/dev/null; then
    echo "SKIPPED: nm and readelf (binutils) are needed"
    exit 77
fi
[ -e "$lib" ] || { echo "FAIL: no $lib (the cuzk_shared target)"; exit 1; }

exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort -u)
others=$(printf '%s\n' "$exported" | grep -v '^cuzk_' || true)
[ -z "$others" ] || fail "symbols outside the API are exported:" $others

# The functions the public headers declare CUZK_EXPORT, read through the
# preprocessor with the marker left as a word (no comments, no #defines):
# each declaration runs from CUZK_EXPORT to its ';'; without attributes,
# its name is the first cuzk_ word followed by '('.
cc=${CC:-cc}
declared=$(for h in "$root"/include/cuzk/*.h; do
    printf '#include "%s"\n' "$h" | "$cc" -E -P -DCUZK_EXPORT=CUZK_EXPORT -I "$root/include" -x c -
done | tr '\n' ' ' | tr ';' '\n' | grep -o 'CUZK_EXPORT .*' |
    sed -E 's/__attribute__ *\(\([^)]*\)\)//g; s/^[^(]*[^a-z0-9_](cuzk_[a-z0-9_]+) *\(.*/\1/' |
    sort -u)
[ -n "$declared" ] || fail "no CUZK_EXPORT declarations found in include/cuzk"
missing=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$exported"))
[ -z "$missing" ] || fail "declared but not exported:" $missing
extra=$(comm -13 <(printf '%s\n' "$declared") <(printf '%s\n' "$exported"))
[ -z "$extra" ] || fail "exported but not declared in include/cuzk:" $extra

soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
case "$soname" in
libcuzk.so.[0-9]*) ;;
*) fail "SONAME is '$soname', expected libcuzk.so.<version>" ;;
esac

n=$(printf '%s\n' "$declared" | wc -l)
if [ $failed -eq 0 ]; then
    echo "PASS: libcuzk.so ($soname) exports exactly the $n functions of include/cuzk"
    exit 0
fi
exit 1
