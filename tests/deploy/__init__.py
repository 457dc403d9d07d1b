"""Tests of the deployment tooling."""
