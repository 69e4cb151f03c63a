"""What runs cost (Day 18): the meter that prices each request and words the bill (`meter`) and
one run's bill, charged by every caller of the model (`bill`)."""
