# The seed 003 puzzle (../shared/seeds/003) with the clue r4c5 = 6 of the well-known
# original (unique solution), in the framed Simple Sudoku .ss layout.
*-----------*
|53.|.7.|...|
|6..|195|...|
|.98|...|.6.|
|---+---+---|
|8..|.6.|..3|
|4..|8.3|..1|
|7..|.2.|..6|
|---+---+---|
|.6.|...|28.|
|...|419|..5|
|...|.8.|.79|
*-----------*
