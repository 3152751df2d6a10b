"""Settings modules: `base` (shared), `local` (development default), `test`, `production`."""
