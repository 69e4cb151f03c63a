"""KeSi's seven tools: read_file, list_files, glob, grep, edit_file, write_file, run_command."""
