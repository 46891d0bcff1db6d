"""The cards themselves: the original art drawn for every card type and each game's card back."""
