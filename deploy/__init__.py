"""Deployment files of lnviz: the container image, nginx and Kubernetes configs, and a
local runner of several replicas behind nginx (replicas.py)."""
