"""Fake hardware for the tests, the examples and the simulator (device.fake.fakehw); never deployed."""
