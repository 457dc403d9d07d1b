"""Deployment: the local launcher now; docker-compose, Kubernetes and Prometheus config later."""
