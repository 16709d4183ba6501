# Small, fast links for CI and quick checks (see docs/testbed.md).
# Two shaped veth pairs at rates a 2-core machine reaches easily, and one delay link.
slow     rate=200mbit mtu=1500
fast     rate=500mbit mtu=1500
delayed  mtu=1500 delay=5ms
