# NicBench testbed profile: one emulated adapter per line, "NAME key=value ...".
# Mirrors the seed articles' test VMs: one adapter of each type on its own subnet.
# Keys: rate (tc units: kbit, mbit, gbit), mtu, delay, jitter, loss, gso, burst, limit, link.
# Format and expected figures: docs/testbed.md. Use: scripts/testbed up default
e1000-like     rate=1gbit   mtu=1500
vmxnet3-like   rate=10gbit  mtu=1500
vmxnet3-jumbo  rate=10gbit  mtu=9000
wan            rate=100mbit mtu=1500 delay=20ms
