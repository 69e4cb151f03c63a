"""What the agent has read: which lines of which version it saw (`parts`, Days 06 and 10) and
the texts themselves, kept for a while (`texts`, Day 9 and the change sets' restores)."""
