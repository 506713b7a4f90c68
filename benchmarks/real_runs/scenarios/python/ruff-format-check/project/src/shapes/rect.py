class Rect:
    def __init__(self, w:float,h:float)->None:
        self.w=w
        self.h  =  h

    def area(self)->float :
        return self.w*self.h
    def scaled(self, k: float) -> 'Rect':
        return Rect(self.w * k,
                    self.h * k)
