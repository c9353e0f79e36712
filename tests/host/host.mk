# host tests: see tests/host/
check-host:
	@echo "host tests: none yet"
