"""The upstream transport: the pooled client, retries and circuit breakers, replica choice, and which model version an upstream serves."""
