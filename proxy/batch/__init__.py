"""Batch jobs: the OpenAI Files and Batches API, a durable per-line queue in the database, the
nightly window and the worker that feeds each line through the proxy's pipeline."""
