"""Running more than one copy of the app: several `python app.py` replicas behind nginx with sticky sessions
(deploy/replicas.py; docs/deploy.md has the measured capacity and the numbers for a course)."""
