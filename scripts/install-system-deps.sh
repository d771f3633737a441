#!/usr/bin/env bash
# Installs the Debian packages the test suite drives: Chromium's headless shell (browser tests), PHP and Composer
# (real-client tests), nginx and wrk (the benchmark's baseline and its load generator), git (the embedded code host;
# its http-backend serves the tests' HTTPS-style git server) and OpenSSH's server (the tests' SSH git server with a
# deploy key). Does nothing when all are present; otherwise installs them as root, through sudo when not run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
packages=(git chromium-headless-shell php-cli php-zip php-curl php-mbstring unzip composer nginx-light wrk openssh-server)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
  echo "System packages present: ${packages[*]}"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing Debian packages: ${missing[*]}; installing them with sudo"
  exec sudo bash "$0" "$@"
fi
echo "Installing Debian packages: ${missing[*]}"
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
