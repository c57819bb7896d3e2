# Debian packages on demand, for test/deps.sh and test/citus-build.sh (sourced).
#   apt_missing PKG...        prints those of PKG... that are not installed
#   apt_install LABEL PKG...  installs them with apt-get (as root; otherwise
#                             says what to install and exits)

apt_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"
	done
}

apt_install() {
	local label=$1
	shift
	[ $# -gt 0 ] || return 0
	echo "$label: installing $*"
	if [ "$(id -u)" -ne 0 ]; then
		echo "$label: not root; install these packages first: $*" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
