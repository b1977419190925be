"""The HTTP face: the Litestar app and its controllers, the admin API, the OpenAPI document, ``/metrics`` and ``/v1/models``."""
