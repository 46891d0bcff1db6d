"""The one exception type a user can cause: the CLI prints it as one line and exits with status 2."""


class UserError(Exception):
    """Bad input from the user: a catalogue, an option value, an impossible layout.

    The message is one line that names the file or option, the field and what is wrong.
    """
