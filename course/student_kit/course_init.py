"""Advanced PyTorch Internals: the helpers the course notebooks import (see ``course.student``)."""
