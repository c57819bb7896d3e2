# Debian packages on demand, for test/deps.sh and test/citus-build.sh (sourced).
#   apt_missing PKG...        prints those of PKG... that are not installed
#   apt_install LABEL PKG...  installs them with apt-get (as root; otherwise
#                             says what to install and exits): says once what
#                             it installs, how much it downloads and roughly
#                             how long it takes, and waits (saying so) while
#                             another apt-get or dpkg holds the lock

apt_missing() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"
	done
}

# apt_lock_holder: "process PID (NAME)" holding dpkg's or apt's lock, or
# nothing (the locks are fcntl locks: /proc/locks names their holders)
apt_lock_holder() {
	local f ino pid
	for f in /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock; do
		[ -e "$f" ] || continue
		ino=$(stat -c %i "$f")
		pid=$(awk -v ino="$ino" '$2 != "->" { n = split($6, a, ":"); if (a[n] == ino) { print $5; exit } }' /proc/locks)
		if [ -n "$pid" ]; then
			echo "process $pid ($(cat "/proc/$pid/comm" 2>/dev/null || echo gone))"
			return
		fi
	done
}

# apt_wait_lock LABEL: wait (up to 30 minutes) while another process holds
# the lock, saying so once
apt_wait_lock() {
	local holder waited=0
	while holder=$(apt_lock_holder) && [ -n "$holder" ] && [ $waited -lt 1800 ]; do
		[ $waited -eq 0 ] && echo "$1: waiting for $holder, which holds the dpkg/apt lock (up to 30 minutes)"
		sleep 5
		waited=$((waited + 5))
	done
	[ $waited -eq 0 ] || echo "$1: the lock is free after ${waited} s"
}

apt_install() {
	local label=$1 n mb
	shift
	[ $# -gt 0 ] || return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "$label: not root; install these packages first: $*" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	local apt=(apt-get -o DPkg::Lock::Timeout=1800)
	apt_wait_lock "$label"
	"${apt[@]}" update -qq
	# what it will download: the packages and everything they pull in
	n=$("${apt[@]}" install -s --no-install-recommends "$@" 2>/dev/null | grep -c '^Inst ' || true)
	mb=$("${apt[@]}" install -qq --print-uris --no-install-recommends "$@" 2>/dev/null |
		awk '{ s += $3 } END { printf "%d", s / 1e6 + 0.5 }' || true)
	# (measured: 758 packages, 360 MB took 5.3 minutes on 2 busy cores)
	echo "$label: installing $* ($n packages with what they need, $mb MB to download;" \
		"roughly $(((n + mb + 105) / 210 > 0 ? (n + mb + 105) / 210 : 1)) min on a 2-core machine, once)"
	"${apt[@]}" install -y -qq --no-install-recommends "$@" >/dev/null
}
