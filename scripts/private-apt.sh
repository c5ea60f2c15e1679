# Sourced by fetch-upstream.sh and cpython.sh: apt-get and apt-cache with a
# private configuration, for downloading Debian source packages.  The
# machine's own apt sources and state are never read or changed.
#
#   private_apt_init DIR SUITES MIRROR   (re)create DIR: a sources.list of
#                                        "deb-src MIRROR SUITE main" lines,
#                                        empty state, DIR/download
#   private_apt apt-get|apt-cache ARGS   run it with DIR's configuration

private_apt_init() {
    private_apt_dir=$1
    rm -rf "$private_apt_dir"
    mkdir -p "$private_apt_dir/etc/sources.list.d" "$private_apt_dir/etc/preferences.d" \
             "$private_apt_dir/lists/partial" "$private_apt_dir/cache/archives/partial" \
             "$private_apt_dir/state" "$private_apt_dir/download"
    : > "$private_apt_dir/etc/sources.list"
    for s in $2; do
        echo "deb-src $3 $s main" >> "$private_apt_dir/etc/sources.list"
    done
}

private_apt() {
    _tool=$1
    shift
    "$_tool" -o "Dir::Etc::SourceList=$private_apt_dir/etc/sources.list" \
        -o "Dir::Etc::SourceParts=$private_apt_dir/etc/sources.list.d" \
        -o "Dir::Etc::Preferences=$private_apt_dir/etc/preferences" \
        -o "Dir::Etc::PreferencesParts=$private_apt_dir/etc/preferences.d" \
        -o "Dir::State=$private_apt_dir/state" -o "Dir::State::Lists=$private_apt_dir/lists" \
        -o "Dir::State::status=/dev/null" \
        -o "Dir::Cache=$private_apt_dir/cache" -o "Debug::NoLocking=1" \
        -o "APT::Sandbox::User=root" -o "Acquire::Retries=3" "$@"
}
